import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ConfigCheck, MailSettings } from '@mailroom/contract/mail';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { fileExists } from '../../host/folders.ts';
import type { Host, StagedFile } from '../../host/host.ts';
import { LOCAL_PORTS, SYSTEM_PORTS } from '../../config.ts';
import { serializedOn } from './host-queue.ts';
import {
  type DovecotPaths,
  renderDovecotConf,
  renderDovecotDict,
  renderDovecotMailroom,
  renderDovecotServices,
  renderDovecotSql,
} from './dovecot.renderer.ts';
import type { MailDbConn } from './mail-db-conn.ts';
import {
  checkStagedRspamd,
  type FilterTarget,
  filterWanted,
  milterAddress,
  rspamdFiles,
  virusScanSupport,
} from './mail-filter.ts';
import { MAIL_PATHS, MANAGED_HEADER } from './mail-paths.ts';
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
}

/** Whether the host root is a data folder (render a self-contained tree) or the machine itself. */
const isLocal = (host: Host) => path.resolve(host.root) !== '/';

export function postfixPaths(host: Host): PostfixPaths {
  return {
    virtualDomains: host.path(MAIL_PATHS.virtualDomains),
    virtualMailboxes: host.path(MAIL_PATHS.virtualMailboxes),
    virtualAliases: host.path(MAIL_PATHS.virtualAliases),
    tlsCert: host.path(MAIL_PATHS.tlsCert),
    tlsKey: host.path(MAIL_PATHS.tlsKey),
    dovecotLda: MAIL_PATHS.dovecotLda,
    local: isLocal(host)
      ? {
          queueDirectory: host.path(MAIL_PATHS.postfixQueue),
          dataDirectory: host.path(MAIL_PATHS.postfixData),
          maillogFile: host.path(MAIL_PATHS.mailLog),
        }
      : null,
  };
}

export function dovecotPaths(host: Host): DovecotPaths {
  return {
    sqlConf: host.path(MAIL_PATHS.dovecotSql),
    dictConf: host.path(MAIL_PATHS.dovecotDict),
    vmail: host.path(MAIL_PATHS.vmail),
    tlsCert: host.path(MAIL_PATHS.tlsCert),
    tlsKey: host.path(MAIL_PATHS.tlsKey),
    postfixQueue: host.path(MAIL_PATHS.postfixQueue),
    local: isLocal(host)
      ? {
          baseDir: host.path(MAIL_PATHS.dovecotRun),
          stateDir: host.path(MAIL_PATHS.dovecotState),
          logPath: host.path(MAIL_PATHS.mailLog),
        }
      : null,
  };
}

/** The filter's ports when the caller does not pass config.ports: the mode's defaults. */
export function defaultFilterTarget(host: Host): FilterTarget {
  const ports = isLocal(host) ? LOCAL_PORTS : SYSTEM_PORTS;
  return { milterPort: ports.milter, dnsPort: ports.dns };
}

/** Every file of the mail stack for these settings. */
export async function renderMailFiles(
  db: Kysely<Database>,
  host: Host,
  conn: MailDbConn,
  s: MailSettings,
  filter: FilterTarget = defaultFilterTarget(host),
): Promise<FileSpec[]> {
  const pp = postfixPaths(host);
  const milter = filterWanted(s, await virusScanSupport(host)) ? milterAddress(filter) : null;
  const dp = dovecotPaths(host);
  const secret = conn.dialect === 'postgres' ? 0o640 : 0o644;
  const files: FileSpec[] = [
    {
      path: MAIL_PATHS.virtualDomains,
      content: renderPostfixMap(conn, POSTFIX_QUERIES.domains),
      mode: secret,
    },
    {
      path: MAIL_PATHS.virtualMailboxes,
      content: renderPostfixMap(conn, POSTFIX_QUERIES.mailboxes),
      mode: secret,
    },
    {
      path: MAIL_PATHS.virtualAliases,
      content: renderPostfixMap(conn, POSTFIX_QUERIES.aliases),
      mode: secret,
    },
    {
      path: MAIL_PATHS.postfixMain,
      content: renderMainCf(await host.readFile(MAIL_PATHS.postfixMain), postfixParams(s, conn, pp, milter)),
    },
    {
      path: MAIL_PATHS.postfixMaster,
      content: renderMasterCf(await host.readFile(MAIL_PATHS.postfixMaster), s, pp),
    },
    { path: MAIL_PATHS.dovecotSql, content: renderDovecotSql(conn, dp), mode: 0o640 },
    { path: MAIL_PATHS.dovecotDict, content: renderDovecotDict(conn), mode: 0o640 },
    { path: MAIL_PATHS.dovecotMailroom, content: renderDovecotMailroom(s, conn, dp) },
    { path: MAIL_PATHS.dovecotServices, content: renderDovecotServices(dp) },
  ];
  const dovecotConf = await host.readFile(MAIL_PATHS.dovecotConf);
  if (dovecotConf === null || dovecotConf.startsWith(MANAGED_HEADER)) {
    files.push({ path: MAIL_PATHS.dovecotConf, content: renderDovecotConf(dp) });
  }
  files.push(...(await rspamdFiles(db, host, s, filter)));
  return files;
}

const failed = (text: string) => /\b(fatal|error)\b/i.test(text);

/**
 * Proves the staged files with the real tools: `postconf -n`/`-M` on a copy of main.cf and
 * master.cf, `postmap -q` through each lookup table (which opens the database and runs the
 * query), `doveconf -n` on Mailroom's Dovecot files. Answers null when none of them is installed.
 */
export async function checkStagedMailFiles(
  host: Host,
  conn: MailDbConn,
  staged: StagedFile[],
): Promise<ConfigCheck | null> {
  const stagedOf = (systemPath: string) => staged.find((f) => f.target === host.path(systemPath));
  const out: string[] = [];
  let ok = true;
  let ran = false;
  const tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'mailroom-mail-check-'));
  try {
    const postconf = await host.which('postconf');
    const main = stagedOf(MAIL_PATHS.postfixMain);
    const master = stagedOf(MAIL_PATHS.postfixMaster);
    if (postconf && main && master) {
      ran = true;
      await fs.writeFile(path.join(tmp, 'main.cf'), main.content);
      await fs.writeFile(path.join(tmp, 'master.cf'), master.content);
      for (const flag of ['-n', '-M']) {
        const r = await host.run(postconf, ['-c', tmp, flag]);
        const bad = r.code !== 0 || failed(r.stderr);
        if (bad) ok = false;
        if (bad || r.stderr.trim()) out.push(`postconf ${flag}: ${r.stderr.trim() || `exit ${r.code}`}`);
      }
      if (ok) out.push('postconf: main.cf and master.cf parsed');
    } else if (!postconf)
      out.push('postconf not installed (Debian package: postfix): Postfix files not checked');

    const postmap = await host.which('postmap');
    if (postmap) {
      for (const file of [
        MAIL_PATHS.virtualDomains,
        MAIL_PATHS.virtualMailboxes,
        MAIL_PATHS.virtualAliases,
      ]) {
        const f = stagedOf(file);
        if (!f) continue;
        ran = true;
        const r = await host.run(postmap, [
          '-q',
          'mailroom-check@mailroom.invalid',
          `${postfixMapType(conn)}:${f.staged}`,
        ]);
        if ((r.code !== 0 && r.code !== 1) || failed(r.stderr)) {
          ok = false;
          out.push(`postmap ${path.basename(file)}: ${r.stderr.trim() || `exit ${r.code}`}`);
        } else out.push(`postmap ${path.basename(file)}: lookup ran`);
      }
    } else out.push('postmap not installed (Debian package: postfix): lookup tables not checked');

    const doveconf = await host.which('doveconf');
    const mailroomConf = stagedOf(MAIL_PATHS.dovecotMailroom);
    const servicesConf = stagedOf(MAIL_PATHS.dovecotServices);
    if (doveconf && mailroomConf && servicesConf) {
      ran = true;
      const wrapper = path.join(tmp, 'dovecot-check.conf');
      await fs.writeFile(wrapper, `!include ${mailroomConf.staged}\n!include ${servicesConf.staged}\n`);
      const r = await host.run(doveconf, ['-c', wrapper, '-n']);
      if (r.code !== 0 || failed(r.stderr)) {
        ok = false;
        out.push(`doveconf: ${r.stderr.trim() || `exit ${r.code}`}`);
      } else out.push('doveconf: Dovecot settings parsed');
    } else if (!doveconf)
      out.push('doveconf not installed (Debian package: dovecot-core): Dovecot files not checked');

    const filter = await checkStagedRspamd(host, staged);
    if (filter) {
      ran = true;
      if (!filter.ok) ok = false;
      out.push(filter.output);
    }
  } finally {
    await fs.rm(tmp, { recursive: true, force: true });
  }
  return ran ? { ok, output: out.join('\n') } : null;
}

/**
 * A self-signed certificate for the mail host when TLS is on and none is in place yet, so
 * Postfix and Dovecot can start; replace it with a real one (SSL area) at the same paths.
 */
export async function ensureTlsCertificate(host: Host, hostname: string): Promise<string | null> {
  if ((await fileExists(host, MAIL_PATHS.tlsCert)) && (await fileExists(host, MAIL_PATHS.tlsKey)))
    return null;
  const openssl = await host.which('openssl');
  if (!openssl)
    return `TLS is on but there is no certificate at ${host.path(MAIL_PATHS.tlsCert)} and openssl is not installed (Debian package: openssl)`;
  const tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'mailroom-tls-'));
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
      `/CN=${hostname}`,
      '-addext',
      `subjectAltName=DNS:${hostname}`,
      '-keyout',
      key,
      '-out',
      crt,
    ]);
    if (r.code !== 0) return `could not make a self-signed certificate: ${r.stderr.trim()}`;
    await host.commitFiles([
      { path: MAIL_PATHS.tlsKey, content: await fs.readFile(key, 'utf8'), mode: 0o600 },
      { path: MAIL_PATHS.tlsCert, content: await fs.readFile(crt, 'utf8') },
    ]);
    return null;
  } finally {
    await fs.rm(tmp, { recursive: true, force: true });
  }
}

/** System mode: Postfix and Dovecot pick up the new files. */
async function reloadMailServices(host: Host): Promise<string[]> {
  const notes: string[] = [];
  const postfix = await host.which('postfix');
  if (postfix) {
    const r = await host.run(postfix, ['reload']);
    notes.push(`postfix reload: ${r.code === 0 ? 'done' : r.stderr.trim() || `exit ${r.code}`}`);
  }
  const doveadm = await host.which('doveadm');
  if (doveadm) {
    const r = await host.run(doveadm, ['reload']);
    notes.push(`doveadm reload: ${r.code === 0 ? 'done' : r.stderr.trim() || `exit ${r.code}`}`);
  }
  // rspamd re-reads its DKIM maps by itself; local.d changes (switches, ports) need a reload.
  const systemctl = (await host.which('rspamd')) ? await host.which('systemctl') : null;
  if (systemctl) {
    const r = await host.run(systemctl, ['reload', 'rspamd']);
    notes.push(`rspamd reload: ${r.code === 0 ? 'done' : r.stderr.trim() || `exit ${r.code}`}`);
  }
  return notes;
}

export interface ApplyResult {
  /** False when a check refused the files (the last good ones stay). */
  ok: boolean;
  check: ConfigCheck | null;
}

/** Renders, checks and writes the whole mail stack. */
export function applyMailStack(
  db: Kysely<Database>,
  host: Host,
  conn: MailDbConn,
  s: MailSettings,
  filter: FilterTarget = defaultFilterTarget(host),
): Promise<ApplyResult> {
  return serializedOn(host, async () => {
    if (s.enableTLS) {
      const problem = await ensureTlsCertificate(host, s.hostname);
      if (problem) return { ok: false, check: { ok: false, output: problem } };
    }
    const files = await renderMailFiles(db, host, conn, s, filter);
    let check: ConfigCheck | null = null;
    const result = await host.commitFiles(files, async (staged) => {
      check = await checkStagedMailFiles(host, conn, staged);
      return check ?? { ok: true, output: '' };
    });
    if (result.ok && host.reloadEnabled) {
      const notes = await reloadMailServices(host);
      const c = check as ConfigCheck | null;
      if (c) check = { ok: c.ok, output: [c.output, ...notes].join('\n') };
    }
    return { ok: result.ok, check };
  });
}
