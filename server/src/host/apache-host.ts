import { type Dirent, promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Host, StagedFile } from './host.ts';
import { isAlive, livePidFromFile } from './supervisor.ts';

/**
 * Apache on the host: the check of a staged configuration tree, graceful reloads, the master's
 * uptime, and the site folders. Paths are system paths mapped by the Host.
 */

/** Debian's /etc/apache2/envvars, for checking Debian's own apache2.conf (system mode). */
export const DEBIAN_APACHE_ENV: NodeJS.ProcessEnv = {
  APACHE_RUN_USER: 'www-data',
  APACHE_RUN_GROUP: 'www-data',
  APACHE_PID_FILE: '/var/run/apache2/apache2.pid',
  APACHE_RUN_DIR: '/var/run/apache2',
  APACHE_LOCK_DIR: '/var/lock/apache2',
  APACHE_LOG_DIR: '/var/log/apache2',
  LANG: 'C',
};

export interface ApacheCheck {
  ok: boolean;
  checked: boolean;
  output: string;
}

export const APACHE_MISSING =
  'apache2 was not found (Debian package apache2); the files were written without being checked.';

/**
 * `apache2 -t` on the configuration as it would be after the swap: a scratch copy of the live
 * folder with the staged files (and removals) applied, so nothing live is touched. Every path in
 * Apache's words is given back as the live one.
 */
export async function checkApacheTree(
  host: Host,
  dir: string,
  staged: StagedFile[],
  removed: string[] = [],
): Promise<ApacheCheck> {
  const bin = await host.which('apache2');
  if (!bin) return { ok: true, checked: false, output: APACHE_MISSING };
  const live = host.path(dir);
  const tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'mailroom-apache-check-'));
  const copy = path.join(tmp, 'apache2');
  try {
    const rel = (target: string) => {
      const r = path.relative(live, target);
      return r.startsWith('..') || path.isAbsolute(r) ? null : r;
    };
    const writes = new Map<string, string>();
    for (const f of staged) {
      const r = rel(f.target);
      if (r) writes.set(r, f.content);
    }
    const drops = new Set(removed.map((r) => rel(host.path(r))).filter((r): r is string => r !== null));
    await mirror(live, copy, '', writes, drops);
    const res = await host.run(bin, ['-t', '-d', copy, '-f', path.join(copy, 'apache2.conf')], {
      env: { ...process.env, ...DEBIAN_APACHE_ENV },
      timeoutMs: 120_000,
    });
    const output = `${res.stdout}${res.stderr}`
      .split(copy)
      .join(live)
      .split('\n')
      .filter((l) => !/AH00558|Could not reliably determine/.test(l))
      .join('\n')
      .trim();
    return { ok: res.code === 0, checked: true, output };
  } finally {
    await fs.rm(tmp, { recursive: true, force: true });
  }
}

/**
 * The quick check of a change that only adds or rewrites sites (no server-wide file, no
 * certificate): the live configuration plus each changed site file as staged (`-c Include`). An
 * old version of a rewritten site is read too; it passed before, and the first of two hosts with
 * the same name wins, so the staged version is what is proved. Apache's words name the live path.
 */
export async function checkApacheSites(host: Host, dir: string, sites: StagedFile[]): Promise<ApacheCheck> {
  const bin = await host.which('apache2');
  if (!bin) return { ok: true, checked: false, output: APACHE_MISSING };
  const live = host.path(dir);
  const args = ['-t', '-d', live, '-f', path.join(live, 'apache2.conf')];
  for (const f of sites) args.push('-c', `Include ${f.staged}`);
  const res = await host.run(bin, args, {
    env: { ...process.env, ...DEBIAN_APACHE_ENV },
    timeoutMs: 120_000,
  });
  let output = `${res.stdout}${res.stderr}`;
  for (const f of sites) output = output.split(f.staged).join(f.target);
  output = output
    .split('\n')
    .filter((l) => !/AH00558|Could not reliably determine/.test(l))
    .join('\n')
    .trim();
  return { ok: res.code === 0, checked: true, output };
}

/**
 * Builds the check tree: a folder holding no staged file or removal is one symbolic link to the
 * live folder; one that does is rebuilt entry by entry (links to the live entries, the staged
 * contents written, the removed left out). Cheap at a thousand sites: only the changed folders
 * are listed.
 */
async function mirror(
  live: string,
  copy: string,
  rel: string,
  writes: Map<string, string>,
  drops: Set<string>,
): Promise<void> {
  await fs.mkdir(path.join(copy, rel), { recursive: true });
  let entries: Dirent[] = [];
  try {
    entries = await fs.readdir(path.join(live, rel), { withFileTypes: true });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  const prefix = rel === '' ? '' : rel + path.sep;
  const changed = [...writes.keys(), ...drops];
  const touched = (r: string) => changed.some((w) => w.startsWith(r + path.sep));
  const kinds = new Map<string, Dirent | null>();
  for (const e of entries) if (!/\.(tmp|bak)$/.test(e.name)) kinds.set(e.name, e);
  for (const w of writes.keys())
    if (w.startsWith(prefix)) {
      const first = w.slice(prefix.length).split(path.sep)[0]!;
      if (!kinds.has(first)) kinds.set(first, null);
    }
  // One folder's entries at once: a thousand sites are a thousand links, made side by side.
  await Promise.all(
    [...kinds].map(async ([name, e]) => {
      const r = prefix + name;
      if (drops.has(r)) return;
      const to = path.join(copy, r);
      if (writes.has(r)) return fs.writeFile(to, writes.get(r)!);
      const src = path.join(live, r);
      if (e === null || (e.isDirectory() && touched(r))) return mirror(live, copy, r, writes, drops);
      // Debian's enabled links are relative (../mods-available/x.load): keep them as they are.
      if (e.isSymbolicLink()) return fs.symlink(await fs.readlink(src), to);
      return fs.symlink(src, to);
    }),
  );
}

/** `logrotate -d` on a staged logrotate file (debug mode: nothing is rotated). */
export async function checkLogrotate(host: Host, file: StagedFile): Promise<ApacheCheck> {
  const bin = await host.which('logrotate');
  if (!bin)
    return { ok: true, checked: false, output: 'logrotate was not found (Debian package logrotate).' };
  const tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'mailroom-logrotate-'));
  try {
    const conf = path.join(tmp, 'mailroom-apache2');
    await fs.writeFile(conf, file.content, { mode: 0o644 });
    const res = await host.run(bin, ['-d', '-s', path.join(tmp, 'state'), conf], { timeoutMs: 30_000 });
    const out = `${res.stdout}${res.stderr}`.split(conf).join(file.target);
    const errors = out.split('\n').filter((l) => /^error:/i.test(l.trim()));
    return {
      ok: res.code === 0 && errors.length === 0,
      checked: true,
      output: errors.join('\n') || 'logrotate -d: OK',
    };
  } finally {
    await fs.rm(tmp, { recursive: true, force: true });
  }
}

/** The live master pid from the pid file, or null. */
export const apachePid = (host: Host, pidFile: string) => livePidFromFile(host.path(pidFile));

/**
 * A graceful restart of the Apache whose pid file is given (SIGUSR1 to the master): running
 * requests finish on the old configuration. Not running: nothing to reload (it reads the files when
 * it starts).
 */
export async function gracefulByPid(
  host: Host,
  pidFile: string,
): Promise<{ ok: boolean; attempted: boolean; output: string; pid: number | null }> {
  const pid = await apachePid(host, pidFile);
  if (!pid)
    return { ok: true, attempted: false, output: 'apache2 is not running; nothing reloaded.', pid: null };
  try {
    process.kill(pid, 'SIGUSR1');
    return { ok: true, attempted: true, output: `apache2 (pid ${pid}): graceful restart`, pid };
  } catch (err) {
    return { ok: false, attempted: true, output: `apache2 (pid ${pid}): ${String(err)}`, pid };
  }
}

/** Seconds since a process started (from /proc), or null. */
export async function processUptimeSeconds(pid: number): Promise<number | null> {
  if (!isAlive(pid)) return null;
  try {
    const stat = await fs.readFile(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const startTicks = Number(fields[19]);
    const up = Number((await fs.readFile('/proc/uptime', 'utf8')).split(' ')[0]);
    const hz = 100;
    return Math.max(0, Math.round(up - startTicks / hz));
  } catch {
    return null;
  }
}

/** Resolves a path through every symbolic link of its existing part (the rest appended as is). */
export async function resolveExisting(host: Host, systemPath: string): Promise<string> {
  const root = path.resolve(host.root);
  let probe = host.path(systemPath);
  const rest: string[] = [];
  for (;;) {
    try {
      const real = await fs.realpath(probe);
      const joined = path.join(real, ...rest.reverse());
      const rel = path.relative(root, joined);
      return rel.startsWith('..') ? joined : '/' + rel;
    } catch {
      const parent = path.dirname(probe);
      if (parent === probe) return systemPath;
      rest.push(path.basename(probe));
      probe = parent;
    }
  }
}

/**
 * Creates a site's document root (and a first index page when it is new), owned by `owner`; the
 * folders above it are made traversable. Answers whether it was created.
 */
export async function ensureSiteFolder(
  host: Host,
  systemPath: string,
  owner: { uid: number; gid: number } | null,
  indexHtml: string,
): Promise<boolean> {
  const dir = host.path(systemPath);
  try {
    await fs.access(dir);
    return false;
  } catch {
    /* made below */
  }
  await fs.mkdir(dir, { recursive: true, mode: 0o755 });
  const index = path.join(dir, 'index.html');
  await fs.writeFile(index, indexHtml, { mode: 0o644, flag: 'wx' }).catch(() => undefined);
  if (owner) {
    await fs.chown(dir, owner.uid, owner.gid);
    await fs.chown(index, owner.uid, owner.gid).catch(() => undefined);
  }
  return true;
}

/** A folder the Apache user writes (rate-limit counters); owner set when created or wrong. */
export async function ensureOwnedFolder(host: Host, systemPath: string, user: string): Promise<void> {
  const dir = host.path(systemPath);
  await fs.mkdir(dir, { recursive: true, mode: 0o750 });
  const id = await userIds(host, user);
  if (id && typeof process.getuid === 'function' && process.getuid() === 0)
    await fs.chown(dir, id.uid, id.gid);
}

/** A plain folder Apache reads (ACME webroot, run and log folders). */
export async function ensureFolder(host: Host, systemPath: string): Promise<void> {
  await fs.mkdir(host.path(systemPath), { recursive: true, mode: 0o755 });
}

/** uid/gid of a user (from /etc/passwd of the machine), or null. */
export async function userIds(_host: Host, user: string): Promise<{ uid: number; gid: number } | null> {
  try {
    const passwd = await fs.readFile('/etc/passwd', 'utf8');
    const line = passwd.split('\n').find((l) => l.startsWith(`${user}:`));
    if (!line) return null;
    const f = line.split(':');
    return { uid: Number(f[2]), gid: Number(f[3]) };
  } catch {
    return null;
  }
}

/** Removes a site's files (delete without keepFiles). */
export async function removeSiteFolder(host: Host, systemPath: string): Promise<void> {
  await fs.rm(host.path(systemPath), { recursive: true, force: true });
}

/** A file of the machine itself (a certificate given by path: Apache reads it as given), or null. */
export async function readMachineFile(p: string): Promise<string | null> {
  try {
    return await fs.readFile(p, 'utf8');
  } catch {
    return null;
  }
}

/** Whether a file exists on the machine itself (modules, programs): not mapped under the host root. */
export async function machineFileExists(p: string): Promise<boolean> {
  try {
    await fs.access(p);
    return true;
  } catch {
    return false;
  }
}

/** A self-signed certificate for the HTTPS catch-all host, made once with openssl. */
export async function ensureDefaultCertificate(
  host: Host,
  certFile: string,
  keyFile: string,
): Promise<boolean> {
  const cert = host.path(certFile);
  const key = host.path(keyFile);
  try {
    await fs.access(cert);
    await fs.access(key);
    return true;
  } catch {
    /* made below */
  }
  const bin = await host.which('openssl');
  if (!bin) return false;
  await fs.mkdir(path.dirname(cert), { recursive: true });
  const res = await host.run(bin, [
    'req',
    '-x509',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-days',
    '3650',
    '-subj',
    '/CN=mailroom-default.invalid',
    '-keyout',
    key,
    '-out',
    cert,
  ]);
  if (res.code !== 0) return false;
  await fs.chmod(key, 0o600);
  return true;
}

export { isAlive };

/**
 * Reads a log from a byte position: the complete lines after it (a partial last line waits for
 * the next read) and the position after them. A file that was rotated (another inode) or cut
 * (smaller than the position) is read from its start.
 */
/** The end of a log (its inode and size), or null when it is not there. */
export async function logEnd(file: string): Promise<{ inode: string; offset: number } | null> {
  try {
    const st = await fs.stat(file);
    return { inode: String(st.ino), offset: st.size };
  } catch {
    return null;
  }
}

export async function readLogFrom(
  file: string,
  pos: { inode: string; offset: number },
  maxBytes = 16 * 1024 * 1024,
): Promise<{ lines: string[]; inode: string; offset: number } | null> {
  let handle;
  try {
    handle = await fs.open(file, 'r');
  } catch {
    return null;
  }
  try {
    const st = await handle.stat();
    const inode = String(st.ino);
    let offset = inode === pos.inode && st.size >= pos.offset ? pos.offset : 0;
    const len = Math.min(st.size - offset, maxBytes);
    if (len <= 0) return { lines: [], inode, offset };
    const buf = Buffer.alloc(len);
    await handle.read(buf, 0, len, offset);
    const end = buf.lastIndexOf(0x0a);
    if (end < 0) return { lines: [], inode, offset };
    const text = buf.subarray(0, end).toString('utf8');
    offset += end + 1;
    return { lines: text === '' ? [] : text.split('\n'), inode, offset };
  } finally {
    await handle.close();
  }
}
