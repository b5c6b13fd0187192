import { type ChildProcess, spawn } from 'node:child_process';
import { promises as fs } from 'node:fs';
import { acquireLog, type LogWriter } from './rotating-log.ts';
import { GATE, lines, openGate, writePidFile } from './app-process-internals.ts';
import type { RunAs } from './app-process-user.ts';

/**
 * The app process supervisor. Split by responsibility beside it: `app-process-user.ts` (the app's
 * Unix user), `app-process-files.ts` (folders and files), `app-process-probe.ts` (ports and
 * probes), `app-process-build.ts` (build steps), `app-process-pid.ts` (pid files, orphans).
 * Imports of this module do not change.
 */
export * from './app-process-user.ts';
export * from './app-process-files.ts';
export * from './app-process-probe.ts';
export * from './app-process-build.ts';
export * from './app-process-pid.ts';

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
  /**
   * Called with the pid each time it is started (restarts too), before the command runs: it is
   * held at a start gate until this resolves (Mailroom moves it into its instance's cgroup here).
   */
  onSpawn?: (pid: number) => Promise<void>;
  /**
   * An argument prefix that starts it confined (systemd-run --scope … --uid= --): spawned by
   * Mailroom's user, the prefix switches to the app's user itself. Only for the start command.
   */
  scope?: string[];
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
    const scoped = this.spec.scope?.length ? [...this.spec.scope, ...this.spec.argv] : null;
    const gated = this.spec.onSpawn && !scoped ? [...GATE, ...this.spec.argv] : null;
    const [cmd, ...args] = scoped ?? gated ?? this.spec.argv;
    const child = spawn(cmd!, args, {
      cwd: this.spec.cwd,
      env: this.spec.env,
      stdio: [gated ? 'pipe' : 'ignore', 'pipe', 'pipe'],
      detached: true,
      ...(this.spec.runAs && !scoped ? { uid: this.spec.runAs.uid, gid: this.spec.runAs.gid } : {}),
    });
    this.child = child;
    this.startedAt = Date.now();
    if (this.spec.pidFile && child.pid) void writePidFile(this.spec.pidFile, child.pid);
    const keep = (l: string) => this.keepLine(l);
    if (gated && this.spec.onSpawn) openGate(child, this.spec.onSpawn, keep);
    lines(child.stdout!, keep);
    lines(child.stderr!, keep);
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
