import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Host, StagedFile } from './host.ts';
import { isAlive, livePidFromFile } from './supervisor.ts';

/**
 * PHP-FPM on the host: which versions are installed, the check of staged pool files, the site
 * users the pools run as, and the graceful reload of a Mailroom-run master. Paths are system paths
 * mapped by the Host.
 */

/** The program of one PHP version (Debian package php<v>-fpm), or null when it is not installed. */
export async function phpFpmProgram(version: string): Promise<string | null> {
  const p = `/usr/sbin/php-fpm${version}`;
  try {
    await fs.access(p);
    return p;
  } catch {
    return null;
  }
}

export interface PoolCheck {
  ok: boolean;
  checked: boolean;
  output: string;
}

/**
 * `php-fpm<v> -t` on the staged pool files of one version, alone (pool names and sockets are one
 * per site, so a pool cannot clash with the live ones): a scratch main file includes them. PHP-FPM
 * resolves each pool's user, so a missing site user is refused too. Paths in its words are the live ones.
 */
export async function checkPhpPools(host: Host, version: string, pools: StagedFile[]): Promise<PoolCheck> {
  const bin = await phpFpmProgram(version);
  if (!bin)
    return {
      ok: true,
      checked: false,
      output: `php-fpm${version} was not found (Debian package php${version}-fpm); the pools were not checked.`,
    };
  if (!pools.length) return { ok: true, checked: false, output: '' };
  const tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'mailroom-php-fpm-check-'));
  try {
    const main = path.join(tmp, 'php-fpm.conf');
    let text = `[global]\npid = ${path.join(tmp, 'php-fpm.pid')}\nerror_log = ${path.join(tmp, 'error.log')}\n`;
    for (const p of pools) text += `include = ${p.staged}\n`;
    await fs.writeFile(main, text);
    const r = await host.run(bin, ['-t', '-y', main], { timeoutMs: 60_000 });
    const res = { code: r.code, out: `${r.stdout}${r.stderr}` };
    let output = res.out;
    for (const p of pools) output = output.split(p.staged).join(p.target);
    output = output
      .split('\n')
      .map((l) => l.replace(/^\[[^\]]+\]\s*/, '').trim())
      .filter((l) => l && !/test is successful/.test(l))
      .join('\n');
    return {
      ok: res.code === 0,
      checked: true,
      output: res.code === 0 ? `php-fpm${version} -t: OK` : output || `php-fpm${version} -t failed`,
    };
  } finally {
    await fs.rm(tmp, { recursive: true, force: true });
  }
}

/** uid/gid of a user from /etc/passwd, or null. */
async function passwdIds(user: string): Promise<{ uid: number; gid: number } | null> {
  const passwd = await fs.readFile('/etc/passwd', 'utf8').catch(() => '');
  const line = passwd.split('\n').find((l) => l.startsWith(`${user}:`));
  if (!line) return null;
  const f = line.split(':');
  return { uid: Number(f[2]), gid: Number(f[3]) };
}

/**
 * The system user a site's files and PHP pool belong to (made once with `useradd --system`, its
 * own group, no home, no shell). Only as root; answers its ids.
 */
const known = new Map<string, { uid: number; gid: number }>();

export async function ensureSiteUser(host: Host, name: string): Promise<{ uid: number; gid: number } | null> {
  // Site users are never removed by Mailroom: one look at /etc/passwd per name (a full render of a
  // thousand sites does not read it a thousand times).
  const cached = known.get(name);
  if (cached) return cached;
  const have = await passwdIds(name);
  if (have) {
    known.set(name, have);
    return have;
  }
  const res = await host.run('/usr/sbin/useradd', [
    '--system',
    '--user-group',
    '--no-create-home',
    '--home-dir',
    '/nonexistent',
    '--shell',
    '/usr/sbin/nologin',
    '--comment',
    'Mailroom web site',
    name,
  ]);
  const made = await passwdIds(name);
  if (!made) throw new Error(`useradd ${name}: ${`${res.stdout}${res.stderr}`.trim()}`);
  known.set(name, made);
  return made;
}

/** A group's gid from /etc/group, or null. */
async function groupId(group: string): Promise<number | null> {
  const lines = (await fs.readFile('/etc/group', 'utf8').catch(() => '')).split('\n');
  const line = lines.find((l) => l.startsWith(`${group}:`));
  return line ? Number(line.split(':')[2]) : null;
}

/**
 * Files a deleted site leaves behind ("keep files"): everything under `systemPath` owned by the
 * site's user or group is given to root (user root; the site's own group becomes root's, another
 * group such as Apache's stays), so no orphan uid owns them once the user is gone. Symlinks are
 * changed themselves, never followed. Answers how many entries changed owner.
 */
export async function giveSiteFilesToRoot(
  host: Host,
  systemPath: string,
  site: { uid: number; gid: number },
): Promise<number> {
  let n = 0;
  const visit = async (p: string): Promise<void> => {
    const st = await fs.lstat(p).catch(() => null);
    if (!st) return;
    if (st.uid === site.uid || st.gid === site.gid) {
      const mode = st.mode & 0o7777;
      await fs.lchown(p, st.uid === site.uid ? 0 : st.uid, st.gid === site.gid ? 0 : st.gid);
      // chown clears the setgid bit of a folder: it is put back (new files keep the folder's group).
      if (st.isDirectory()) await fs.chmod(p, mode);
      n++;
    }
    if (st.isDirectory()) for (const e of await fs.readdir(p)) await visit(path.join(p, e));
  };
  await visit(host.path(systemPath));
  return n;
}

/**
 * Removes a site's Unix user (and its own group) once its site and pool are gone. userdel refuses
 * while a process still runs as the user (a PHP-FPM worker finishing after the graceful reload):
 * it is asked again for a few seconds. Answers what was done, or why not.
 */
export async function removeSiteUser(
  host: Host,
  name: string,
): Promise<{ removed: boolean; output: string }> {
  known.delete(name);
  if (!(await passwdIds(name))) return { removed: false, output: `${name} does not exist` };
  let out = '';
  for (let i = 0; i < 40; i++) {
    const res = await host.run('/usr/sbin/userdel', [name]);
    out = `${res.stdout}${res.stderr}`.trim();
    if (!(await passwdIds(name))) break;
    // 8: the user is logged in / runs a process; anything else will not change by waiting.
    if (res.code !== 8) break;
    await new Promise((r) => setTimeout(r, 250));
  }
  if (await passwdIds(name)) return { removed: false, output: `userdel ${name}: ${out}` };
  // userdel removes the user's own group when no one else is in it; one left behind goes too.
  if ((await groupId(name)) !== null) await host.run('/usr/sbin/groupdel', [name]);
  return { removed: true, output: `userdel ${name}: removed` };
}

/**
 * A site's document root for its own user: owner the site user, group Apache's (reads the static
 * files), mode 2750: no other site's user can enter it. `deep`: everything inside too (a folder
 * Mailroom just made).
 */
export async function secureSiteFolder(
  host: Host,
  systemPath: string,
  owner: { uid: number; gid: number },
  apacheGid: number,
  deep: boolean,
): Promise<void> {
  const dir = host.path(systemPath);
  const own = async (p: string) => {
    await fs.lchown(p, owner.uid, apacheGid);
  };
  await own(dir);
  await fs.chmod(dir, 0o2750);
  if (!deep) return;
  const walk = async (d: string): Promise<void> => {
    for (const e of await fs.readdir(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      await own(p);
      if (e.isDirectory()) await walk(p);
    }
  };
  await walk(dir);
}

/** The live master pid of a Mailroom-run PHP-FPM (local mode), or null. */
export const phpFpmPid = (host: Host, pidFile: string) => livePidFromFile(host.path(pidFile));

/** Graceful reload of a running PHP-FPM master (SIGUSR2: workers finish, pools are read again). */
export async function reloadPhpFpmByPid(
  host: Host,
  pidFile: string,
): Promise<{ ok: boolean; attempted: boolean; output: string }> {
  const pid = await phpFpmPid(host, pidFile);
  if (!pid || !isAlive(pid)) return { ok: true, attempted: false, output: 'php-fpm is not running.' };
  try {
    process.kill(pid, 'SIGUSR2');
    return { ok: true, attempted: true, output: `php-fpm (pid ${pid}): graceful reload` };
  } catch (err) {
    return { ok: false, attempted: true, output: `php-fpm (pid ${pid}): ${String(err)}` };
  }
}
