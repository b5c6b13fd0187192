import path from 'node:path';
import { type MailSettings } from '@mailroom/contract/mail';
import { type MailTlsSource } from '@mailroom/contract/mail-tls';
import { type Kysely } from 'kysely';
import { type DaemonPorts, LOCAL_PORTS, SYSTEM_PORTS } from '../../../config.ts';
import { type Database } from '../../../db/schema.ts';
import { type Host } from '../../../host/host.ts';
import {
  type DovecotPaths,
  renderDovecotConf,
  renderDovecotDict,
  renderDovecotMailroom,
  renderDovecotServices,
  renderDovecotSql,
  renderDovecotAppPasswordSql,
  appPasswordSqlConf,
} from './dovecot.renderer.ts';
import { type MailDbConn } from './mail-db.connection.ts';
import {
  type FilterTarget,
  filterWanted,
  milterAddress,
  rspamdFiles,
  virusScanSupport,
} from './mail-filter.service.ts';
import { LOCAL_LISTEN, MAIL_DB_GROUP, MAIL_PATHS, MANAGED_HEADER } from './mail-paths.layout.ts';
import {
  POSTFIX_QUERIES,
  type PostfixPaths,
  postfixParams,
  renderMainCf,
  renderMasterCf,
  renderPostfixMap,
} from './postfix.renderer.ts';

interface FileSpec {
  path: string;
  content: string;
  mode?: number;
  /** Postfix's files: written already cool (HostFile.backdate), so no reader pauses up to 2 s. */
  backdate?: boolean;
}

/** Whether the host root is a data folder (render a self-contained tree) or the machine itself. */
export const isLocalRoot = (host: Host) => path.resolve(host.root) !== '/';

/** Where the daemons listen (config.ports); the defaults follow the host mode. */
export interface MailRenderOptions {
  ports?: Pick<DaemonPorts, 'smtp' | 'submission' | 'imap' | 'imaps'>;
  /** Where the filter's milter and the name server it asks listen (config.ports by default). */
  filter?: FilterTarget;
  /** From the SSL area: the certificate to serve (written with the other files) and the TLS policy. */
  tls?: Awaited<ReturnType<MailTlsSource>> | null;
}

const portsFor = (host: Host, opts: MailRenderOptions) =>
  opts.ports ?? (isLocalRoot(host) ? LOCAL_PORTS : SYSTEM_PORTS);

export function postfixPaths(host: Host, opts: MailRenderOptions = {}): PostfixPaths {
  const ports = portsFor(host, opts);
  const local = isLocalRoot(host);
  return {
    virtualDomains: host.path(MAIL_PATHS.virtualDomains),
    virtualMailboxes: host.path(MAIL_PATHS.virtualMailboxes),
    virtualAliases: host.path(MAIL_PATHS.virtualAliases),
    senderLogins: host.path(MAIL_PATHS.senderLogins),
    tlsCert: host.path(MAIL_PATHS.tlsCert),
    tlsKey: host.path(MAIL_PATHS.tlsKey),
    listen: { address: local ? LOCAL_LISTEN : null, smtp: ports.smtp, submission: ports.submission },
    local: local
      ? {
          queueDirectory: host.path(MAIL_PATHS.postfixQueue),
          dataDirectory: host.path(MAIL_PATHS.postfixData),
          maillogFile: host.path(MAIL_PATHS.mailLog),
          trustedNetwork: `${LOCAL_LISTEN}/32`,
        }
      : null,
  };
}

export function dovecotPaths(host: Host, conn: MailDbConn, opts: MailRenderOptions = {}): DovecotPaths {
  const ports = portsFor(host, opts);
  const local = isLocalRoot(host);
  return {
    sqlConf: host.path(MAIL_PATHS.dovecotSql),
    dictConf: host.path(MAIL_PATHS.dovecotDict),
    vmail: host.path(MAIL_PATHS.vmail),
    tlsCert: host.path(MAIL_PATHS.tlsCert),
    tlsKey: host.path(MAIL_PATHS.tlsKey),
    postfixQueue: host.path(MAIL_PATHS.postfixQueue),
    listen: { address: local ? LOCAL_LISTEN : null, imap: ports.imap, imaps: ports.imaps },
    dbGroup: conn.dialect === 'sqlite' ? MAIL_DB_GROUP : null,
    local: local
      ? {
          baseDir: host.path(MAIL_PATHS.dovecotRun),
          stateDir: host.path(MAIL_PATHS.dovecotState),
          logPath: host.path(MAIL_PATHS.mailLog),
        }
      : null,
  };
}

/** The Postfix lookup tables Mailroom renders, with their queries. */
export const postfixTables = (conn: MailDbConn) =>
  [
    [MAIL_PATHS.virtualDomains, POSTFIX_QUERIES.domains()],
    [MAIL_PATHS.virtualMailboxes, POSTFIX_QUERIES.mailboxes()],
    [MAIL_PATHS.virtualAliases, POSTFIX_QUERIES.aliases(conn)],
    [MAIL_PATHS.senderLogins, POSTFIX_QUERIES.senderLogins(conn)],
  ] as const;

/** The filter's ports when the caller does not pass config.ports: the mode's defaults. */
export function defaultFilterTarget(host: Host): FilterTarget {
  const ports = isLocalRoot(host) ? LOCAL_PORTS : SYSTEM_PORTS;
  return { milterPort: ports.milter, dnsPort: ports.dns };
}

/** Every file of the mail stack for these settings. */
export async function renderMailFiles(
  db: Kysely<Database>,
  host: Host,
  conn: MailDbConn,
  s: MailSettings,
  opts: MailRenderOptions = {},
): Promise<FileSpec[]> {
  const served = opts.tls?.certificate ?? null;
  // No certificate from the SSL area: Mailroom's own self-signed fallback (ensureFallbackCertificate).
  const tlsFiles = served
    ? {}
    : { tlsCert: host.path(MAIL_PATHS.tlsFallbackCert), tlsKey: host.path(MAIL_PATHS.tlsFallbackKey) };
  const pp = { ...postfixPaths(host, opts), ...tlsFiles, tlsPolicy: opts.tls?.policy ?? null };
  const dp = { ...dovecotPaths(host, conn, opts), ...tlsFiles, tlsPolicy: opts.tls?.policy ?? null };
  const filter: FilterTarget = opts.filter ?? defaultFilterTarget(host);
  const milter = filterWanted(s, await virusScanSupport(host)) ? milterAddress(filter) : null;
  // A PostgreSQL table holds the password: readable by root and (see checkStagedMailFiles) postfix.
  const secret = conn.dialect === 'postgres' ? 0o640 : 0o644;
  const files: FileSpec[] = [
    ...postfixTables(conn).map(([file, query]) => ({
      path: file,
      content: renderPostfixMap(conn, query),
      mode: secret,
      backdate: true,
    })),
    {
      path: MAIL_PATHS.postfixMain,
      content: renderMainCf(await host.readFile(MAIL_PATHS.postfixMain), postfixParams(s, conn, pp, milter)),
      backdate: true,
    },
    {
      path: MAIL_PATHS.postfixMaster,
      content: renderMasterCf(await host.readFile(MAIL_PATHS.postfixMaster), s, pp),
      backdate: true,
    },
    { path: MAIL_PATHS.dovecotSql, content: renderDovecotSql(conn, dp), mode: 0o640 },
    {
      path: appPasswordSqlConf(MAIL_PATHS.dovecotSql),
      content: renderDovecotAppPasswordSql(conn),
      mode: 0o640,
    },
    { path: MAIL_PATHS.dovecotDict, content: renderDovecotDict(conn), mode: 0o640 },
    { path: MAIL_PATHS.dovecotMailroom, content: renderDovecotMailroom(s, conn, dp) },
    { path: MAIL_PATHS.dovecotServices, content: renderDovecotServices(s, dp) },
  ];
  const dovecotConf = await host.readFile(MAIL_PATHS.dovecotConf);
  if (dovecotConf === null || dovecotConf.startsWith(MANAGED_HEADER)) {
    files.push({ path: MAIL_PATHS.dovecotConf, content: renderDovecotConf() });
  }
  files.push(...(await rspamdFiles(db, host, s, filter)));
  if (s.enableTLS && served) {
    // The SSL area's certificate, in the same atomic file set: checked, swapped and reloaded together.
    const mark = `${MANAGED_HEADER}\n# Certificate ${served.certificateId} of the SSL area (SHA-256 ${served.fingerprint}).\n`;
    files.push(
      { path: MAIL_PATHS.tlsKey, content: mark + served.keyPem, mode: 0o600 },
      { path: MAIL_PATHS.tlsCert, content: mark + served.fullchainPem, mode: 0o644 },
    );
  }
  return files;
}

/**
 * The served certificate's files that must go: when the SSL area serves none (unassigned,
 * deleted) or TLS is off, its key and certificate leave the disk with the same apply.
 */
export function mailTlsRemovals(s: MailSettings, opts: MailRenderOptions = {}): string[] {
  return s.enableTLS && opts.tls?.certificate ? [] : [MAIL_PATHS.tlsCert, MAIL_PATHS.tlsKey];
}
