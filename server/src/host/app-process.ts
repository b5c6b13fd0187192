import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { promises as fs } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { acquireLog, type LogWriter } from './rotating-log.ts';

/** A Unix user and group to run as (null: Mailroom's own user). */
export type RunAs = { uid: number; gid: number; user: string } | null;

const isRoot = () => typeof process.getuid === 'function' && process.getuid() === 0;

/** The base environment of every app process and build (nothing of Mailroom's own leaks in). */
export const APP_BASE_ENV = { PATH: '/usr/local/bin:/usr/bin:/bin', LANG: 'C.UTF-8' };

function exec(cmd: string, args: string[]): Promise<{ ok: boolean; out: string }> {
  return new Promise((resolve) => {
    execFile(cmd, args, { timeout: 30_000 }, (err, stdout, stderr) => {
      resolve({ ok: !err, out: `${String(stdout)}${String(stderr)}`.trim() || (err ? err.message : '') });
    });
  });
}

async function idsOf(user: string): Promise<{ uid: number; gid: number } | null> {
  const passwd = await fs.readFile('/etc/passwd', 'utf8').catch(() => '');
  const f = passwd
    .split('\n')
    .find((l) => l.startsWith(`${user}:`))
    ?.split(':');
  return f ? { uid: Number(f[2]), gid: Number(f[3]) } : null;
}

/**
 * The app's own system user `mr-app-<name>` (made with useradd when missing). Not root: null and
 * the reason (the app then runs as Mailroom's user).
 */
export async function ensureAppUser(name: string): Promise<{ runAs: RunAs; reason: string }> {
  const user = `mr-app-${name}`;
  if (!isRoot()) return { runAs: null, reason: 'Mailroom is not running as root: the app runs as its user' };
  let ids = await idsOf(user);
  if (!ids) {
    const r = await exec('useradd', [
      '--system',
      '--no-create-home',
      '--home-dir',
      '/nonexistent',
      '--shell',
      '/usr/sbin/nologin',
      '--',
      user,
    ]);
    ids = await idsOf(user);
    if (!ids) return { runAs: null, reason: `useradd ${user} failed: ${r.out}` };
  }
  return { runAs: { ...ids, user }, reason: '' };
}

export async function removeAppUser(name: string): Promise<void> {
  if (!isRoot()) return;
  const user = `mr-app-${name}`;
  if (await idsOf(user)) await exec('userdel', ['--', user]);
}

/** Gives a folder tree to the app's user (root only). */
export async function chownTree(dir: string, runAs: RunAs): Promise<void> {
  if (!runAs || !isRoot()) return;
  await exec('chown', ['-R', '--no-dereference', `${runAs.uid}:${runAs.gid}`, '--', dir]);
}

/** A folder and its parents, traversable by other users (the app user, Apache). */
export async function ensureAppFolder(dir: string): Promise<void> {
  await fs.mkdir(dir, { recursive: true, mode: 0o755 });
}

export async function removeTree(dir: string): Promise<void> {
  await fs.rm(dir, { recursive: true, force: true });
}

export async function folderExists(dir: string): Promise<boolean> {
  return fs.stat(dir).then(
    (s) => s.isDirectory(),
    () => false,
  );
}

export async function fileExists(file: string): Promise<boolean> {
  return fs.stat(file).then(
    (s) => s.isFile(),
    () => false,
  );
}

/** The first file named `name` under `dir` (breadth first, `maxDepth` folders down), relative to `dir`. */
export async function findFileBelow(dir: string, name: string, maxDepth: number): Promise<string | null> {
  let level = [''];
  for (let depth = 0; depth <= maxDepth && level.length; depth++) {
    const next: string[] = [];
    for (const rel of level) {
      const entries = await fs.readdir(path.join(dir, rel), { withFileTypes: true }).catch(() => []);
      for (const e of entries) {
        if (e.isFile() && e.name === name) return path.join(rel, e.name);
        if (e.isDirectory()) next.push(path.join(rel, e.name));
      }
    }
    level = next.sort();
  }
  return null;
}

/** Bytes used by the files under `dir` (symbolic links not followed). */
export async function treeSize(dir: string): Promise<number> {
  let total = 0;
  const walk = async (d: string): Promise<void> => {
    const entries = await fs.readdir(d, { withFileTypes: true }).catch(() => []);
    for (const e of entries) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) await walk(p);
      else {
        const s = await fs.lstat(p).catch(() => null);
        if (s) total += s.size;
      }
    }
  };
  await walk(dir);
  return total;
}

/** A loopback port nobody listens on, from `from` up (a bind proves it). */
export async function freeLoopbackPort(from: number, skip: ReadonlySet<number> = new Set()): Promise<number> {
  for (let p = Math.max(1024, from); p < 65535; p++) {
    if (skip.has(p)) continue;
    const ok = await new Promise<boolean>((resolve) => {
      const s = net.createServer();
      s.once('error', () => resolve(false));
      s.listen(p, '127.0.0.1', () => s.close(() => resolve(true)));
    });
    if (ok) return p;
  }
  throw new Error('no free loopback port');
}

/** GET http://127.0.0.1:port/path: the status, or null when nothing answered in time. */
export function probeHttp(port: number, urlPath: string, timeoutMs: number): Promise<number | null> {
  return new Promise((resolve) => {
    const req = http.get(
      { host: '127.0.0.1', port, path: urlPath, timeout: timeoutMs, agent: false },
      (res) => {
        res.resume();
        resolve(res.statusCode ?? null);
      },
    );
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolve(null));
  });
}

/** Whether something accepts TCP connections on the loopback port. */
export function probeTcp(port: number, timeoutMs: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = net.connect({ host: '127.0.0.1', port, timeout: timeoutMs });
    s.once('connect', () => {
      s.destroy();
      resolve(true);
    });
    s.once('timeout', () => {
      s.destroy();
      resolve(false);
    });
    s.once('error', () => resolve(false));
  });
}

/**
 * Runs a build step (argument array, no shell) in `cwd` as the app's user, at lower CPU priority
 * (nice 10) so a build cannot starve the mail daemons. Answers the exit code.
 */
export function runBuildStep(
  argv: string[],
  opts: {
    cwd: string;
    env: NodeJS.ProcessEnv;
    runAs: RunAs;
    onLine: (stream: 'stdout' | 'stderr', line: string) => void;
    signal?: AbortSignal;
    timeoutMs: number;
  },
): Promise<number> {
  return new Promise((resolve) => {
    const [cmd, ...args] = argv;
    const child = spawn('nice', ['-n', '10', '--', cmd!, ...args], {
      cwd: opts.cwd,
      env: opts.env,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
      ...(opts.runAs ? { uid: opts.runAs.uid, gid: opts.runAs.gid } : {}),
    });
    const kill = () => {
      try {
        if (child.pid) process.kill(-child.pid, 'SIGKILL');
      } catch {
        /* gone */
      }
    };
    const timer = setTimeout(kill, opts.timeoutMs);
    opts.signal?.addEventListener('abort', kill, { once: true });
    lines(child.stdout, (l) => opts.onLine('stdout', l));
    lines(child.stderr, (l) => opts.onLine('stderr', l));
    child.on('error', (err) => {
      opts.onLine('stderr', err.message);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve(code ?? 1);
    });
  });
}

function lines(stream: NodeJS.ReadableStream, onLine: (l: string) => void): void {
  let pending = '';
  stream.setEncoding('utf8');
  stream.on('data', (c: string) => {
    pending += c;
    const parts = pending.split(/\r?\n/);
    pending = parts.pop() ?? '';
    for (const l of parts) onLine(l);
  });
  stream.on('end', () => {
    if (pending) onLine(pending);
  });
}

export interface AppProcessSpec {
  argv: string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
  runAs: RunAs;
  /**
   * stdout and stderr are appended here (machine path), one line each as `<ISO time> <tag>[<pid>]: <text>`,
   * rotated by Mailroom (host/rotating-log.ts); '' keeps no file (Enable Logging off).
   */
  logFile: string;
  /** The name in each log line (the application's name). */
  logTag?: string;
  /** The Stop Command as arguments (run first when stopping; signals follow if it is still up). */
  stopArgv?: string[] | null;
  /**
   * Where its pid is kept while it runs (machine path, named `.app-<port>.pid` in the releases
   * folder): a Mailroom that died without stopping it finds it there at its next start.
   */
  pidFile?: string;
}

const PID_FILE = /^\.app-\d+\.pid$/;
export const appPidFile = (releasesDir: string, port: number) => path.join(releasesDir, `.app-${port}.pid`);

/** Written whole or not at all (a reader never sees an empty file). */
async function writePidFile(file: string, pid: number): Promise<void> {
  const tmp = `${file}.${pid}.tmp`;
  await fs
    .writeFile(tmp, `${pid}\n`, { mode: 0o600 })
    .then(() => fs.rename(tmp, file))
    .catch(() => fs.rm(tmp, { force: true }));
}

const alive = (pid: number) =>
  fs.stat(`/proc/${pid}`).then(
    () => true,
    () => false,
  );

/**
 * Stops the app processes a previous Mailroom left running in `releasesDir` (it was killed, or
 * crashed, so it never stopped them): each pid file's process group, when that process still runs
 * in a folder under `releasesDir` (a reused pid elsewhere is left alone). Answers how many.
 */
export async function reapOrphanedApps(releasesDir: string, waitMs = 5000): Promise<number> {
  const names = await fs.readdir(releasesDir).catch(() => [] as string[]);
  const root = await fs.realpath(releasesDir).catch(() => releasesDir);
  let reaped = 0;
  for (const name of names.filter((n) => PID_FILE.test(n))) {
    const file = path.join(releasesDir, name);
    const pid = Number((await fs.readFile(file, 'utf8').catch(() => '')).trim());
    const cwd = pid > 1 ? await fs.readlink(`/proc/${pid}/cwd`).catch(() => null) : null;
    if (cwd && (cwd === root || cwd.startsWith(`${root}/`))) {
      const signal = (sig: NodeJS.Signals) => {
        try {
          process.kill(-pid, sig);
        } catch {
          /* gone */
        }
      };
      signal('SIGTERM');
      const until = Date.now() + waitMs;
      while ((await alive(pid)) && Date.now() < until) await new Promise((r) => setTimeout(r, 100));
      if (await alive(pid)) signal('SIGKILL');
      reaped++;
    }
    await fs.rm(file, { force: true });
  }
  return reaped;
}

const BACKOFF_MS = [1000, 2000, 4000, 8000, 16000, 30000];
const TAIL_LINES = 50;

/**
 * One supervised app process (one release on one port): started in its own process group,
 * restarted with a growing delay when it exits unasked, stopped with SIGTERM then SIGKILL.
 */
export class AppProcess {
  private child: ChildProcess | null = null;
  private wanted = false;
  private crashes = 0;
  private timer: NodeJS.Timeout | null = null;
  private log: LogWriter | null = null;
  private exited: Promise<void> = Promise.resolve();
  startedAt: number | null = null;
  /** The last lines it wrote (for the error status). */
  readonly tail: string[] = [];
  /** Called when it exits unasked (before the restart). */
  onCrash: ((code: number | null, tail: string[]) => void) | null = null;

  constructor(readonly spec: AppProcessSpec) {}

  get pid(): number | null {
    return this.child?.pid ?? null;
  }

  get running(): boolean {
    return this.child !== null && this.child.exitCode === null && this.child.signalCode === null;
  }

  async start(): Promise<void> {
    this.wanted = true;
    if (this.spec.logFile) this.log ??= acquireLog(this.spec.logFile);
    this.spawnOnce();
  }

  private keepLine(l: string): void {
    this.tail.push(l);
    if (this.tail.length > TAIL_LINES) this.tail.shift();
    this.log?.write(
      `${new Date().toISOString()} ${this.spec.logTag ?? 'app'}[${this.child?.pid ?? 0}]: ${l}\n`,
    );
  }

  private spawnOnce(): void {
    const [cmd, ...args] = this.spec.argv;
    const child = spawn(cmd!, args, {
      cwd: this.spec.cwd,
      env: this.spec.env,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
      ...(this.spec.runAs ? { uid: this.spec.runAs.uid, gid: this.spec.runAs.gid } : {}),
    });
    this.child = child;
    this.startedAt = Date.now();
    if (this.spec.pidFile && child.pid) void writePidFile(this.spec.pidFile, child.pid);
    const keep = (l: string) => this.keepLine(l);
    lines(child.stdout, keep);
    lines(child.stderr, keep);
    this.exited = new Promise((resolve) => {
      child.on('error', (err) => {
        keep(err.message);
      });
      child.on('close', (code) => {
        resolve();
        if (this.child !== child) return;
        if (!this.wanted) return;
        this.onCrash?.(code, [...this.tail]);
        const delay = BACKOFF_MS[Math.min(this.crashes, BACKOFF_MS.length - 1)]!;
        this.crashes++;
        this.timer = setTimeout(() => {
          if (this.wanted) this.spawnOnce();
        }, delay);
        this.timer.unref();
      });
    });
  }

  /**
   * Runs one of the app's own commands (the Restart Command) as the process runs: same user,
   * folder and environment, argument array (no shell). Its output goes to the app's log and tail.
   * Answers the exit code (null: killed after `timeoutMs`, or it could not be started).
   */
  runCommand(argv: string[], timeoutMs: number): Promise<number | null> {
    return new Promise((resolve) => {
      const [cmd, ...args] = argv;
      const child = spawn(cmd!, args, {
        cwd: this.spec.cwd,
        env: this.spec.env,
        stdio: ['ignore', 'pipe', 'pipe'],
        detached: true,
        ...(this.spec.runAs ? { uid: this.spec.runAs.uid, gid: this.spec.runAs.gid } : {}),
      });
      const keep = (l: string) => this.keepLine(l);
      const timer = setTimeout(() => {
        try {
          if (child.pid) process.kill(-child.pid, 'SIGKILL');
        } catch {
          /* gone */
        }
      }, timeoutMs);
      lines(child.stdout, keep);
      lines(child.stderr, keep);
      child.on('error', (err) => keep(err.message));
      child.on('close', (code) => {
        clearTimeout(timer);
        resolve(code);
      });
    });
  }

  /** SIGTERM to its process group; SIGKILL after `timeoutMs`. */
  async stop(timeoutMs: number): Promise<void> {
    this.wanted = false;
    if (this.timer) clearTimeout(this.timer);
    const child = this.child;
    if (child?.pid && this.running && this.spec.stopArgv?.length) {
      // The app's own Stop Command first (same user, folder and environment), given the timeout.
      const [cmd, ...args] = this.spec.stopArgv;
      const stopper = spawn(cmd!, args, {
        cwd: this.spec.cwd,
        env: this.spec.env,
        stdio: 'ignore',
        ...(this.spec.runAs ? { uid: this.spec.runAs.uid, gid: this.spec.runAs.gid } : {}),
      });
      stopper.on('error', () => undefined);
      await Promise.race([this.exited, new Promise((r) => setTimeout(r, Math.max(0, timeoutMs)))]);
      if (stopper.exitCode === null) stopper.kill('SIGKILL');
    }
    if (child?.pid && this.running) {
      const signal = (s: NodeJS.Signals) => {
        try {
          process.kill(-child.pid!, s);
        } catch {
          /* gone */
        }
      };
      signal('SIGTERM');
      const killer = setTimeout(() => signal('SIGKILL'), Math.max(0, timeoutMs));
      await this.exited;
      clearTimeout(killer);
    }
    this.child = null;
    this.startedAt = null;
    if (this.spec.pidFile) await fs.rm(this.spec.pidFile, { force: true });
    await this.log?.release();
    this.log = null;
  }

  /** Restart counter back to 0 once it stayed up (called after a healthy check). */
  healthy(): void {
    this.crashes = 0;
  }
}
