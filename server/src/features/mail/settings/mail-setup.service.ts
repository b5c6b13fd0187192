import path from 'node:path';
import { makeFolder } from '../../../host/data-files.ts';
import type { Host } from '../../../host/host.ts';
import { setMode, setOwner, statOf } from '../../../host/ownership.ts';
import type { MailDbConn } from '../stack/mail-db.connection.ts';
import { MAIL_DB_GROUP, MAIL_PATHS, VMAIL_ID, VMAIL_USER } from '../stack/mail-paths.layout.ts';

/**
 * What the rendered mail files rely on from the machine: the vmail user and group, the mail
 * folder, Postfix's and Dovecot's folders (local mode), and the database permissions the daemons
 * need on SQLite. `runMailSetup` makes them so (idempotent: `mailroom setup`, and local mode as
 * root before each render); `inspectMailSetup` only names what is missing, with the fix.
 */

export interface SetupStep {
  what: string;
  /** created/changed: this run did it; ok: already so; failed/skipped: see detail. */
  result: 'created' | 'changed' | 'ok' | 'failed' | 'skipped';
  detail: string;
}

export interface SetupProblem {
  what: string;
  fix: string;
}

const isRoot = () => process.getuid?.() === 0;
const isLocal = (host: Host) => path.resolve(host.root) !== '/';

async function getent(host: Host, db: 'passwd' | 'group', key: string): Promise<string[] | null> {
  const bin = await host.which('getent');
  if (!bin) return null;
  const r = await host.run(bin, [db, key]);
  return r.code === 0 ? r.stdout.trim().split(':') : null;
}

/** The numeric id of a group, or null when it does not exist. */
export async function groupId(host: Host, name: string): Promise<number | null> {
  const g = await getent(host, 'group', name);
  return g ? Number(g[2]) : null;
}

async function userIds(host: Host, name: string): Promise<{ uid: number; gid: number } | null> {
  const u = await getent(host, 'passwd', name);
  return u ? { uid: Number(u[2]), gid: Number(u[3]) } : null;
}

/** The SQLite database file and the files SQLite keeps beside it in WAL mode. */
const sqliteFiles = (conn: MailDbConn) =>
  conn.dialect === 'sqlite' ? [conn.path, `${conn.path}-wal`, `${conn.path}-shm`] : [];

/** Folders on the way to `p` that other users cannot pass through (the daemons must). */
async function closedParents(p: string, stopAt: string | null): Promise<string[]> {
  const closed: string[] = [];
  for (let d = path.dirname(p); d !== path.dirname(d); d = path.dirname(d)) {
    if (stopAt && d === stopAt) break;
    const st = await statOf(d);
    if (st && (st.mode & 0o001) === 0) closed.push(d);
  }
  return closed;
}

/** Makes the machine ready for the rendered mail files; reports each step. */
export async function runMailSetup(host: Host, conn: MailDbConn): Promise<SetupStep[]> {
  const steps: SetupStep[] = [];
  const step = (what: string, result: SetupStep['result'], detail: string) =>
    steps.push({ what, result, detail });
  if (!isRoot()) {
    step('setup', 'skipped', 'must run as root (it creates a system user and changes owners)');
    return steps;
  }
  const local = isLocal(host);
  const vmail = host.path(MAIL_PATHS.vmail);
  // The accounts this reads, looked up at once (each lookup runs getent; this runs before every
  // local-mode save, issue 22 #17). postfix and its group exist before this (the package's).
  const [vmailGid, vmailIds, postfixIds, dbGid] = await Promise.all([
    groupId(host, VMAIL_USER),
    userIds(host, VMAIL_USER),
    local ? userIds(host, 'postfix') : Promise.resolve(null),
    conn.dialect === 'sqlite' ? groupId(host, MAIL_DB_GROUP) : Promise.resolve(null),
  ]);

  // The vmail group and user (id 5000 when free: Dovecot refuses mail users below id 500).
  if (vmailGid === null) {
    const free = (await getent(host, 'group', String(VMAIL_ID))) === null;
    const r = await host.run('groupadd', [
      '--system',
      ...(free ? ['--gid', String(VMAIL_ID)] : []),
      VMAIL_USER,
    ]);
    step(`group ${VMAIL_USER}`, r.code === 0 ? 'created' : 'failed', r.stderr.trim() || 'groupadd');
  } else step(`group ${VMAIL_USER}`, 'ok', 'exists');
  if (vmailIds === null) {
    const free = (await getent(host, 'passwd', String(VMAIL_ID))) === null;
    const r = await host.run('useradd', [
      '--system',
      ...(free ? ['--uid', String(VMAIL_ID)] : []),
      '--gid',
      VMAIL_USER,
      '--home-dir',
      vmail,
      '--no-create-home',
      '--shell',
      '/usr/sbin/nologin',
      VMAIL_USER,
    ]);
    step(`user ${VMAIL_USER}`, r.code === 0 ? 'created' : 'failed', r.stderr.trim() || 'useradd');
  } else step(`user ${VMAIL_USER}`, 'ok', 'exists');

  // The mail folder: vmail's alone (the user just made is looked up again).
  const ids = vmailIds ?? (await userIds(host, VMAIL_USER));
  if (ids) {
    const before = await statOf(vmail);
    await makeFolder(vmail);
    const st = await statOf(vmail);
    if (st && (st.uid !== ids.uid || st.gid !== ids.gid || (st.mode & 0o7777) !== 0o770)) {
      await setOwner(vmail, ids.uid, ids.gid);
      await setMode(vmail, 0o770);
      step(
        `mail folder ${vmail}`,
        before ? 'changed' : 'created',
        `owner ${VMAIL_USER}:${VMAIL_USER}, mode 0770`,
      );
    } else step(`mail folder ${vmail}`, 'ok', `owner ${VMAIL_USER}:${VMAIL_USER}, mode 0770`);
  }

  // Local mode: the folders the packages would make under /var for the machine's own instance.
  if (local) {
    // Postfix's master and the vmail user pass through the host root and the data folder that
    // holds it (others may traverse, not list); folders above are named by inspectMailSetup.
    for (const dir of [path.dirname(path.resolve(host.root)), path.resolve(host.root)]) {
      await makeFolder(dir);
      const st = await statOf(dir);
      if (st && (st.mode & 0o001) === 0) {
        await setMode(dir, (st.mode & 0o7777) | 0o001);
        step(`folder ${dir}`, 'changed', 'others may pass through (o+x)');
      }
    }
    for (const [dir, owner, mode] of [
      [MAIL_PATHS.postfixQueue, null, 0o755],
      [MAIL_PATHS.postfixData, postfixIds, 0o700],
      [path.dirname(MAIL_PATHS.mailLog), null, 0o755],
      [MAIL_PATHS.dovecotState, null, 0o755],
    ] as const) {
      const p = host.path(dir);
      const existed = await statOf(p);
      await makeFolder(p);
      if (!existed) {
        await setMode(p, mode);
        if (owner) await setOwner(p, owner.uid, owner.gid);
      }
      step(`folder ${p}`, existed ? 'ok' : 'created', existed ? 'exists' : `mode ${mode.toString(8)}`);
    }
  }

  // SQLite: the daemons read (Postfix) and write (Dovecot's quota dict) the database file.
  if (conn.dialect === 'sqlite') {
    const gid = dbGid;
    if (gid === null) {
      step('database permissions', 'failed', `group ${MAIL_DB_GROUP} does not exist (install postfix first)`);
    } else {
      const dir = path.dirname(conn.path);
      const st = await statOf(dir);
      if (st) {
        // Group-writable and set-group-id so WAL files SQLite makes there get the group too;
        // in local mode others may pass through (not list) to reach the mail folder inside.
        const mode = (st.mode & 0o700) | 0o2070 | (local ? 0o001 : 0);
        const changed = st.gid !== gid || (st.mode & 0o7777) !== mode;
        if (changed) {
          await setOwner(dir, st.uid, gid);
          await setMode(dir, mode);
        }
        step(
          `database folder ${dir}`,
          changed ? 'changed' : 'ok',
          `group ${MAIL_DB_GROUP}, mode ${mode.toString(8)}`,
        );
      }
      for (const f of sqliteFiles(conn)) {
        const fst = await statOf(f);
        if (!fst) continue;
        const changed = fst.gid !== gid || (fst.mode & 0o777) !== 0o660;
        if (changed) {
          await setOwner(f, fst.uid, gid);
          await setMode(f, 0o660);
        }
        step(`database file ${f}`, changed ? 'changed' : 'ok', `group ${MAIL_DB_GROUP}, mode 660`);
      }
    }
  } else {
    step(
      'database permissions',
      'ok',
      'PostgreSQL: the daemons connect with the lookup tables\u2019 credentials',
    );
  }
  return steps;
}

/** Local mode as root: what `mailroom setup` does in system mode, before every render. */
/** Answers whether it ran (local mode as root, with Postfix or Dovecot installed). */
export async function prepareLocalMailHost(host: Host, conn: MailDbConn): Promise<boolean> {
  if (!isLocal(host) || !isRoot()) return false;
  if (!(await host.which('postfix')) && !(await host.which('dovecot'))) return false;
  await runMailSetup(host, conn);
  return true;
}

/** Programs and modules the rendered files use, by Debian package. */
async function missingPackages(host: Host, conn: MailDbConn): Promise<SetupProblem[]> {
  const out: SetupProblem[] = [];
  const need = (what: string, pkg: string) =>
    out.push({ what: `${what} (Debian package ${pkg})`, fix: `apt-get install ${pkg}` });
  const postconf = await host.which('postconf');
  if (!postconf) need('Postfix', 'postfix');
  else {
    const maps = (await host.run(postconf, ['-m'])).stdout;
    const type = conn.dialect === 'sqlite' ? 'sqlite' : 'pgsql';
    if (!new RegExp(`^${type}$`, 'm').test(maps)) need(`Postfix ${type} lookup tables`, `postfix-${type}`);
  }
  if (!(await host.which('dovecot'))) need('Dovecot', 'dovecot-core');
  const exists = async (p: string) => (await statOf(p)) !== null;
  if (!(await exists(MAIL_PATHS.dovecotLmtp))) need('Dovecot LMTP delivery', 'dovecot-lmtpd');
  if (!(await exists(path.join(path.dirname(MAIL_PATHS.dovecotLmtp), 'imap'))))
    need('Dovecot IMAP', 'dovecot-imapd');
  const driver = conn.dialect === 'sqlite' ? 'sqlite' : 'pgsql';
  if (!(await exists(path.join(MAIL_PATHS.dovecotModules, `libdriver_${driver}.so`))))
    need(`Dovecot ${driver} driver`, `dovecot-${driver}`);
  return out;
}

/** What is missing for the rendered mail files to run, each with its fix; changes nothing. */
export async function inspectMailSetup(host: Host, conn: MailDbConn): Promise<SetupProblem[]> {
  const problems = await missingPackages(host, conn);
  const setup = 'run `mailroom setup` as root';
  const vmailIds = await userIds(host, VMAIL_USER);
  if (!vmailIds) problems.push({ what: `the ${VMAIL_USER} user and group`, fix: setup });
  else if (vmailIds.uid < 500)
    problems.push({
      what: `${VMAIL_USER} has user id ${vmailIds.uid}, below Dovecot's first_valid_uid (500)`,
      fix: `give ${VMAIL_USER} an id of 500 or more (usermod -u ${VMAIL_ID} ${VMAIL_USER})`,
    });
  const vmail = host.path(MAIL_PATHS.vmail);
  const vst = await statOf(vmail);
  if (!vst) problems.push({ what: `the mail folder ${vmail}`, fix: setup });
  else if (vmailIds && vst.uid !== vmailIds.uid)
    problems.push({ what: `${vmail} owned by ${VMAIL_USER}`, fix: setup });
  if (vst) {
    const closed = await closedParents(vmail, null);
    if (closed.length)
      problems.push({
        what: `the ${VMAIL_USER} user can reach ${vmail} (closed: ${closed.join(', ')})`,
        fix: `chmod o+x ${closed.join(' ')}`,
      });
  }
  if (conn.dialect === 'sqlite') {
    const gid = await groupId(host, MAIL_DB_GROUP);
    const dir = path.dirname(conn.path);
    const dst = await statOf(dir);
    const fst = await statOf(conn.path);
    if (
      gid !== null &&
      dst &&
      fst &&
      (dst.gid !== gid || (dst.mode & 0o070) !== 0o070 || fst.gid !== gid || (fst.mode & 0o060) !== 0o060)
    )
      problems.push({
        what: `group ${MAIL_DB_GROUP} read/write on the database ${conn.path} and its folder (Postfix and Dovecot read it)`,
        fix: setup,
      });
    if (dst) {
      const closed = (await closedParents(dir, null)).filter((d) => d !== dir);
      if (closed.length)
        problems.push({
          what: `the mail daemons can reach the database folder ${dir} (closed: ${closed.join(', ')})`,
          fix: `chmod o+x ${closed.join(' ')}, or move the data folder (MAILROOM_DATA_DIR)`,
        });
    }
  }
  return problems;
}
