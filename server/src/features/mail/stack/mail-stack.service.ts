import { X509Certificate } from 'node:crypto';
import path from 'node:path';
import type { ConfigCheck, MailSettings } from '@mailroom/contract/mail';
import type { MailTlsSource } from '@mailroom/contract/mail-tls';
import type { Kysely } from 'kysely';
import { type DaemonPorts, LOCAL_PORTS, SYSTEM_PORTS } from '../../../config.ts';
import type { Database } from '../../../db/schema.ts';
import { fileExists } from '../../../host/folders.ts';
import { removeTree } from '../../../host/disk-files.ts';
import type { Host, StagedFile } from '../../../host/host.ts';
import { setOwner } from '../../../host/ownership.ts';
import { makeScratchDir, readScratchFile, writeScratchFile } from '../../../host/scratch.ts';
import { groupId, inspectMailSetup } from '../settings/mail-setup.service.ts';
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
import type { MailDbConn } from './mail-db.connection.ts';
import {
  checkStagedRspamd,
  type FilterTarget,
  filterWanted,
  milterAddress,
  rspamdFiles,
  virusScanSupport,
} from './mail-filter.service.ts';
import { LOCAL_LISTEN, MAIL_DB_GROUP, MAIL_PATHS, MANAGED_HEADER } from './mail-paths.layout.ts';
import { RSPAMD_PATHS } from './rspamd.renderer.ts';
import {
  POSTFIX_QUERIES,
  type PostfixPaths,
  postfixMapType,
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
const postfixTables = (conn: MailDbConn) =>
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

const failed = (text: string) => /\b(fatal|error)\b/i.test(text);

/**
 * Running as root, the staged files that daemons read after dropping privileges get their group:
 * Postfix's proxymap reads the PostgreSQL tables (they hold the password) as postfix, Dovecot's
 * dict reads its connect line as dovecot. Other users still cannot read them.
 */
async function ownStagedFiles(host: Host, conn: MailDbConn, staged: StagedFile[]): Promise<void> {
  if (process.getuid?.() !== 0) return;
  const groups: [string, string][] = [[MAIL_PATHS.dovecotDict, 'dovecot']];
  if (conn.dialect === 'postgres')
    for (const [file] of postfixTables(conn)) groups.push([file, MAIL_DB_GROUP]);
  for (const [file, group] of groups) {
    const f = staged.find((x) => x.target === host.path(file));
    const gid = await groupId(host, group);
    if (f && gid !== null) await setOwner(f.staged, 0, gid);
  }
}

/**
 * Postfix writes a refusal to standard error only when that is a terminal (else to its log):
 * for the words, run the check again on a pseudo-terminal (util-linux `script`).
 */
async function postfixCheckReason(host: Host, dir: string, command: string): Promise<string | null> {
  const script = await host.which('script');
  const postfix = await host.which('postfix');
  if (!script || !postfix || !/^[\w./-]+$/.test(dir)) return null;
  const r = await host.run(script, ['-qec', `${postfix} -c ${dir} ${command}`, '/dev/null']);
  return r.stdout.replace(/\r/g, '').trim() || null;
}

/**
 * What `postfix check` refuses, without its warnings pass: `postfix check` is the `postfix`
 * command's own checks (every parameter, maillog_file against maillog_file_prefixes), then
 * postfix-script's `check-fatal` (queue folders, master.cf, the postlog service, postsuper) and
 * `check-warn`, which only logs ownership/permission warnings over the whole tree (some forty
 * `find` runs) and always exits 0: its words never reached this check. So `check-fatal` refuses
 * exactly what `check` refuses, in about half the time here. A Postfix whose postfix-script has no
 * `check-fatal` (it answers "unknown command") gets the full `check`. Null: Postfix would start.
 */
export async function postfixStartRefusal(host: Host, postfix: string, dir: string): Promise<string | null> {
  // Postfix's own words ("postfix: fatal: ..."), not the runner's "Command failed: ... check-fatal".
  const fatal = /\bfatal:/i;
  for (const command of ['check-fatal', 'check']) {
    const r = await host.run(postfix, ['-c', dir, command]);
    if (r.code === 0 && !fatal.test(r.stderr)) return null;
    const said = fatal.test(r.stderr) ? r.stderr.trim() : await postfixCheckReason(host, dir, command);
    if (command === 'check-fatal' && said && /unknown command/i.test(said)) continue;
    return said || `exit ${r.code} (Postfix would not start; its log says why)`;
  }
  return null;
}

/** `proxy:` tables main.cf uses that its proxy_read_maps leaves out (proxymap would refuse them). */
async function unlistedProxyTables(host: Host, postconf: string, dir: string): Promise<string[]> {
  const used = await host.run(postconf, [
    '-c',
    dir,
    '-xh',
    'virtual_mailbox_domains',
    'virtual_mailbox_maps',
    'virtual_alias_maps',
    'smtpd_sender_login_maps',
  ]);
  const allowed = await host.run(postconf, ['-c', dir, '-xh', 'proxy_read_maps']);
  const names = (text: string) => text.split(/[\s,]+/).filter((n) => n.startsWith('proxy:'));
  const ok = new Set(names(allowed.stdout));
  return names(used.stdout).filter((n) => !ok.has(n));
}

/**
 * Proves the staged files with the real tools: `postconf -n`/`-M` on a copy of main.cf and
 * master.cf, that proxy_read_maps admits every `proxy:` table, `postfix check` on the copy (as
 * root: what `postfix start` refuses, such as a maillog_file outside maillog_file_prefixes),
 * `postmap -q` through each lookup table (which opens the database and runs the query), and
 * `doveconf -n` on Mailroom's Dovecot files. What the daemons need from the machine (the vmail
 * user, folders, database permissions, packages) is named with its fix. Answers null when none
 * of the tools is installed.
 */
export async function checkStagedMailFiles(
  host: Host,
  conn: MailDbConn,
  staged: StagedFile[],
  onStep?: CheckStepListener,
): Promise<ConfigCheck | null> {
  await ownStagedFiles(host, conn, staged);
  const stagedOf = (systemPath: string) => staged.find((f) => f.target === host.path(systemPath));
  const tmp = await makeScratchDir('mailroom-mail-check-');
  // The checks are independent: they run at once (issue 22 #17), each reporting its own step, and
  // their words are put together in a fixed order.
  interface Said {
    ran: boolean;
    ok: boolean;
    lines: string[];
    /** The step's tool is missing: nothing was checked. */
    skipped?: boolean;
  }
  const step = async (name: string, work: () => Promise<Said>): Promise<Said> => {
    onStep?.({ name, state: 'running' });
    try {
      const r = await work();
      onStep?.({
        name,
        state: !r.ran || r.skipped ? 'skipped' : r.ok ? 'passed' : 'failed',
        detail: r.lines.join('\n'),
      });
      return r;
    } catch (err) {
      onStep?.({ name, state: 'failed', detail: String(err) });
      throw err;
    }
  };
  try {
    const checks: Promise<Said>[] = [];
    const [postconf, postmap, doveconf, postfix] = await Promise.all([
      host.which('postconf'),
      host.which('postmap'),
      host.which('doveconf'),
      host.which('postfix'),
    ]);
    // A daemon whose files (and the TLS files it reads) are all unchanged is not checked again:
    // the live files were proved when they were written (issue 22 #17). The pipeline flags each
    // staged file with `changed`; a caller that does not is treated as all changed.
    const changed = (f: StagedFile) => (f as StagedFile & { changed?: boolean }).changed !== false;
    const tlsChanged = [MAIL_PATHS.tlsCert, MAIL_PATHS.tlsKey].some((p) => {
      const f = stagedOf(p);
      return f ? changed(f) : false;
    });
    const within = (dir: string) => (f: StagedFile) => f.target.startsWith(`${host.path(dir)}/`);
    const postfixChanged = tlsChanged || staged.some((f) => within(MAIL_PATHS.postfixDir)(f) && changed(f));
    const dovecotChanged = tlsChanged || staged.some((f) => within('/etc/dovecot')(f) && changed(f));
    const unchanged = (what: string): Said => ({
      ran: true,
      ok: true,
      lines: [`${what}: files unchanged, not checked again`],
      skipped: true,
    });
    const main = stagedOf(MAIL_PATHS.postfixMain);
    const master = stagedOf(MAIL_PATHS.postfixMaster);
    const postfixFiles = postconf && main && master && postfixChanged;
    if (postconf && main && master && !postfixChanged)
      checks.push(step('postconf', () => Promise.resolve(unchanged('Postfix'))));
    if (postfixFiles) {
      // Already cool (HostFile.backdate): else each Postfix program pauses up to 2 s on them.
      await writeScratchFile(path.join(tmp, 'main.cf'), main.content, undefined, { backdate: true });
      await writeScratchFile(path.join(tmp, 'master.cf'), master.content, undefined, { backdate: true });
    }
    if (postfixFiles) {
      checks.push(
        step('postconf', async () => {
          const lines: string[] = [];
          let ok = true;
          let parsed = true;
          const runs = await Promise.all(['-n', '-M'].map((flag) => host.run(postconf, ['-c', tmp, flag])));
          ['-n', '-M'].forEach((flag, i) => {
            const r = runs[i]!;
            // postconf opens the lookup tables' files; on the first render they are still staged.
            const said = r.stderr
              .split('\n')
              .filter((l) => !staged.some((f) => l.includes(`"${f.target}": No such file`)))
              .join('\n')
              .trim();
            const bad = r.code !== 0 || failed(said);
            if (bad) {
              parsed = false;
              ok = false;
              lines.push(`postconf ${flag}: ${said || `exit ${r.code}`}`);
            } else if (said) lines.push(`postconf ${flag}: ${said}`);
          });
          if (parsed) lines.push('postconf: main.cf and master.cf parsed');
          const unlisted = await unlistedProxyTables(host, postconf, tmp);
          if (unlisted.length) {
            ok = false;
            lines.push(
              `proxy_read_maps does not list ${unlisted.join(', ')}: add them (or remove proxy_read_maps)`,
            );
          }
          return { ran: true, ok, lines };
        }),
      );
      if (postfix && process.getuid?.() === 0)
        checks.push(
          step('postfix check', async () => {
            const refusal = await postfixStartRefusal(host, postfix, tmp);
            if (refusal) return { ran: true, ok: false, lines: [`postfix check: ${refusal}`] };
            return { ran: true, ok: true, lines: ['postfix check: Postfix would start on these files'] };
          }),
        );
    } else if (!postconf)
      checks.push(
        Promise.resolve({
          ran: false,
          ok: true,
          lines: ['postconf not installed (Debian package: postfix): Postfix files not checked'],
        }),
      );

    if (postmap) {
      for (const [file] of postfixTables(conn)) {
        const f = stagedOf(file);
        // A lookup table's own file (its query and database) unchanged: proved when it was written.
        if (!f || !changed(f)) continue;
        checks.push(
          step(`postmap ${path.basename(file)}`, async () => {
            const r = await host.run(postmap, [
              '-q',
              'mailroom-check@mailroom.invalid',
              `${postfixMapType(conn)}:${f.staged}`,
            ]);
            return (r.code !== 0 && r.code !== 1) || failed(r.stderr)
              ? {
                  ran: true,
                  ok: false,
                  lines: [`postmap ${path.basename(file)}: ${r.stderr.trim() || `exit ${r.code}`}`],
                }
              : { ran: true, ok: true, lines: [`postmap ${path.basename(file)}: lookup ran`] };
          }),
        );
      }
    } else
      checks.push(
        Promise.resolve({
          ran: false,
          ok: true,
          lines: ['postmap not installed (Debian package: postfix): lookup tables not checked'],
        }),
      );

    const mailroomConf = stagedOf(MAIL_PATHS.dovecotMailroom);
    const servicesConf = stagedOf(MAIL_PATHS.dovecotServices);
    if (doveconf && mailroomConf && servicesConf && !dovecotChanged)
      checks.push(step('doveconf', () => Promise.resolve(unchanged('Dovecot'))));
    else if (doveconf && mailroomConf && servicesConf) {
      checks.push(
        step('doveconf', async () => {
          const wrapper = path.join(tmp, 'dovecot-check.conf');
          // doveconf reads `ssl_cert = <file`: a certificate staged with this set is read from its staged copy.
          let mailroomText = mailroomConf.content;
          for (const p of [MAIL_PATHS.tlsCert, MAIL_PATHS.tlsKey]) {
            const f = stagedOf(p);
            if (f) mailroomText = mailroomText.split(`<${f.target}\n`).join(`<${f.staged}\n`);
          }
          const mailroomCopy = path.join(tmp, '90-mailroom.conf');
          await writeScratchFile(mailroomCopy, mailroomText);
          await writeScratchFile(
            wrapper,
            `protocols = imap lmtp\n!include ${mailroomCopy}\n!include ${servicesConf.staged}\n`,
          );
          const r = await host.run(doveconf, ['-c', wrapper, '-n']);
          return r.code !== 0 || failed(r.stderr)
            ? { ran: true, ok: false, lines: [`doveconf: ${r.stderr.trim() || `exit ${r.code}`}`] }
            : { ran: true, ok: true, lines: ['doveconf: Dovecot settings parsed'] };
        }),
      );
    } else if (!doveconf)
      checks.push(
        Promise.resolve({
          ran: false,
          ok: true,
          lines: ['doveconf not installed (Debian package: dovecot-core): Dovecot files not checked'],
        }),
      );

    const localD = path.dirname(host.path(RSPAMD_PATHS.proxy));
    const filterFiles = staged.filter((f) => path.dirname(f.target) === localD);
    if (filterFiles.length && !filterFiles.some(changed))
      checks.push(step('rspamadm configtest', () => Promise.resolve(unchanged('rspamd'))));
    else if (filterFiles.length)
      checks.push(
        step('rspamadm configtest', async () => {
          const filter = await checkStagedRspamd(host, staged);
          if (!filter) return { ran: false, ok: true, lines: [] };
          // Not installed: nothing was checked (the step says skipped), the words are kept.
          const skipped = filter.ok && /not installed/.test(filter.output);
          return { ran: true, ok: filter.ok, lines: [filter.output], ...(skipped ? { skipped } : {}) };
        }),
      );
    const setup = inspectMailSetup(host, conn).then((problems) => ({
      ran: false,
      ok: true,
      lines: problems.map((p) => `missing: ${p.what}; fix: ${p.fix}`),
    }));
    const results = [...(await Promise.all(checks)), await setup];
    const ran = results.some((r) => r.ran);
    return ran
      ? { ok: results.every((r) => r.ok), output: results.flatMap((r) => r.lines).join('\n') }
      : null;
  } finally {
    await removeTree(tmp);
  }
}

/** One check step as it runs (the mail settings save shows them). */
export interface CheckStepEvent {
  name: string;
  state: 'running' | 'passed' | 'failed' | 'skipped';
  detail?: string;
}
export type CheckStepListener = (e: CheckStepEvent) => void;

/** Lines in front of the fallback's PEM files: Mailroom made it, and why it is served. */
export const fallbackMark = (hostname: string) =>
  `${MANAGED_HEADER}\n# Mailroom's self-signed fallback certificate for ${hostname}: served by Postfix and Dovecot while no certificate is chosen for the mail server (SSL area). Clients do not trust it.\n`;

/** The subject that marks the fallback in the certificate itself. */
export const FALLBACK_ORGANIZATION = 'Mailroom self-signed fallback';

/** Renewed this long before its end (it is made for 825 days). */
const FALLBACK_RENEW_MS = 30 * 86_400_000;

export interface FallbackCertificate {
  hostname: string;
  fingerprint: string;
  validFrom: string;
  validTo: string;
  path: string;
}

/** The fallback on disk, or null when there is none (or it does not parse). */
export async function readFallbackCertificate(host: Host): Promise<FallbackCertificate | null> {
  const pem = await host.readFile(MAIL_PATHS.tlsFallbackCert);
  if (!pem) return null;
  try {
    const x = new X509Certificate(pem);
    const cn = /(?:^|\n)CN=([^\n]+)/.exec(x.subject)?.[1] ?? '';
    return {
      hostname: cn,
      fingerprint: x.fingerprint256,
      validFrom: new Date(x.validFrom).toISOString(),
      validTo: new Date(x.validTo).toISOString(),
      path: host.path(MAIL_PATHS.tlsFallbackCert),
    };
  } catch {
    return null;
  }
}

/**
 * Mailroom's self-signed fallback certificate for the mail host, so Postfix and Dovecot always
 * have one to serve: made when TLS is on and there is none yet, for another host name, or near
 * its end. The SSL area's certificate, when it serves one, is written beside it (mail.crt).
 */
export async function ensureFallbackCertificate(host: Host, hostname: string): Promise<string | null> {
  const current = await readFallbackCertificate(host);
  if (
    current &&
    (await fileExists(host, MAIL_PATHS.tlsFallbackKey)) &&
    current.hostname === hostname &&
    Date.parse(current.validTo) - Date.now() > FALLBACK_RENEW_MS
  )
    return null;
  const openssl = await host.which('openssl');
  if (!openssl)
    return `TLS is on but there is no certificate at ${host.path(MAIL_PATHS.tlsFallbackCert)} and openssl is not installed (Debian package: openssl)`;
  const tmp = await makeScratchDir('mailroom-tls-');
  try {
    const key = path.join(tmp, 'key.pem');
    const crt = path.join(tmp, 'crt.pem');
    const r = await host.run(openssl, [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-days',
      '825',
      '-subj',
      `/O=${FALLBACK_ORGANIZATION}/CN=${hostname}`,
      '-addext',
      `subjectAltName=DNS:${hostname}`,
      '-keyout',
      key,
      '-out',
      crt,
    ]);
    if (r.code !== 0) return `could not make a self-signed certificate: ${r.stderr.trim()}`;
    const mark = fallbackMark(hostname);
    await host.commitFiles([
      { path: MAIL_PATHS.tlsFallbackKey, content: mark + (await readScratchFile(key)), mode: 0o600 },
      { path: MAIL_PATHS.tlsFallbackCert, content: mark + (await readScratchFile(crt)) },
    ]);
    return null;
  } finally {
    await removeTree(tmp);
  }
}
