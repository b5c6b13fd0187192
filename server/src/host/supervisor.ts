import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { DaemonHold, DaemonName, DaemonState, ReloadResult } from './service-control.ts';
import { probe, type ReadinessProbe } from './readiness.ts';

/**
 * How to run one daemon in the foreground (or, for a daemon that forks, how to find it), make it
 * reload and stop it. Adjust these, not the supervisor, when a renderer changes its files.
 */
export interface DaemonSpec {
  name: DaemonName;
  /** Absolute path of the program. */
  program: string;
  args: string[];
  /** The rendered main configuration file; the daemon is not started while it is missing. */
  configPath: string;
  /** Up and serving when every probe succeeds. */
  ready: ReadinessProbe[];
  /** A slow starter's own wait for `ready` (the longer of this and the supervisor's readyTimeoutMs). */
  readyTimeoutMs?: number;
  /**
   * Where the daemon writes its own pid (the real daemon's, which differs from the child's when
   * the command is a wrapper such as `postfix start-fg`).
   */
  pidFile?: string;
  /**
   * For a daemon that writes no pid file in the foreground (rspamd -f): a file where the supervisor
   * records the child's pid, so an instance left by a Mailroom that was killed is found and ended
   * at the next start (only when that pid still runs this program).
   */
  recordPid?: string;
  /**
   * Folders the daemon needs before it starts (run and state folders under the host root); an
   * owner is set only on a folder created here.
   */
  folders?: (string | { path: string; owner: string; mode: number })[];
  reload: { signal: NodeJS.Signals } | { command: string; args: string[] };
  /** Stopping: a command (postfix stop), else SIGTERM to the daemon's pid. */
  stop?: { command: string; args: string[] };
  /**
   * The folder whose files only this Mailroom's instance uses (its data folder's host root; default
   * the configuration's folder). A pid left in a pid file is ended at start only when /proc shows
   * that process running this program on files under it: never another instance's, nor the
   * system's, nor a stranger that reused the pid.
   */
  home?: string;
  env?: NodeJS.ProcessEnv;
  /** Where to look when it fails (a daemon that logs only to its log file prints nothing). */
  hint?: string;
}

export interface SupervisorOptions {
  /** First restart delay after a crash; doubled after each crash up to `maxBackoffMs`. */
  backoffMs?: number;
  maxBackoffMs?: number;
  /** Crashes in a row (each before `stableMs` of uptime) after which the daemon is left failed. */
  maxCrashes?: number;
  /** A run that lasted this long resets the crash count. */
  stableMs?: number;
  readyTimeoutMs?: number;
  stopTimeoutMs?: number;
  log?: (msg: string, fields?: Record<string, unknown>) => void;
  /** The clock of the holds' time bounds (tests move it); default Date.now. */
  now?: () => number;
}

type Phase = 'idle' | 'starting' | 'running' | 'backoff' | 'failed' | 'stopping' | 'stopped';

interface Slot {
  spec: DaemonSpec;
  phase: Phase;
  child: ChildProcess | null;
  /** Resolves when the current child has exited. */
  exited: Promise<void> | null;
  startedAt: number;
  since: string | null;
  crashes: number;
  restarts: number;
  lastError: string;
  output: string[];
  timer: NodeJS.Timeout | null;
  /** A restart asked for (stop, then start) is under way. */
  restarting: boolean;
  /** An intended stop (a restore): pending until it runs again, is released, or `until` passes. */
  hold: { why: DaemonHold['why']; since: number; until: number } | null;
}

const OUTPUT_LINES = 20;
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** Reads a pid file (Postfix pads it with spaces) and returns the pid when that process is alive. */
export async function livePidFromFile(file: string): Promise<number | null> {
  let text: string;
  try {
    text = await fs.readFile(file, 'utf8');
  } catch {
    return null;
  }
  const pid = Number(text.trim());
  if (!Number.isInteger(pid) || pid <= 1) return null;
  return isAlive(pid) ? pid : null;
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function runCommand(
  cmd: string,
  args: string[],
  env?: NodeJS.ProcessEnv,
): Promise<{ ok: boolean; out: string }> {
  return new Promise((resolve) => {
    execFile(cmd, args, { timeout: 30_000, env: env ?? process.env }, (err, stdout, stderr) => {
      const out = `${String(stdout)}${String(stderr)}`.trim() || (err ? err.message : '');
      resolve({ ok: !err, out });
    });
  });
}

/**
 * Starts daemons as children it owns, waits until they answer, restarts a crashed one with
 * backoff (and leaves it `failed` after repeated crashes), reloads and stops them.
 */
export class Supervisor {
  private readonly slots = new Map<DaemonName, Slot>();
  private readonly o: Required<Omit<SupervisorOptions, 'log' | 'now'>> & Pick<SupervisorOptions, 'log'>;
  private readonly now: () => number;
  private closing = false;

  constructor(specs: DaemonSpec[], opts: SupervisorOptions = {}) {
    this.o = {
      backoffMs: opts.backoffMs ?? 1000,
      maxBackoffMs: opts.maxBackoffMs ?? 30_000,
      maxCrashes: opts.maxCrashes ?? 5,
      stableMs: opts.stableMs ?? 60_000,
      readyTimeoutMs: opts.readyTimeoutMs ?? 30_000,
      stopTimeoutMs: opts.stopTimeoutMs ?? 15_000,
      log: opts.log,
    };
    this.now = opts.now ?? Date.now;
    for (const spec of specs) {
      this.slots.set(spec.name, {
        spec,
        phase: 'idle',
        child: null,
        exited: null,
        startedAt: 0,
        since: null,
        crashes: 0,
        restarts: 0,
        lastError: '',
        output: [],
        timer: null,
        restarting: false,
        hold: null,
      });
    }
  }

  names(): DaemonName[] {
    return [...this.slots.keys()];
  }

  /** Starts every daemon; resolves once each is ready, failed or waiting to retry. */
  async startAll(): Promise<void> {
    await Promise.all([...this.slots.values()].map((s) => this.launch(s)));
  }

  async start(name: DaemonName): Promise<void> {
    const slot = this.slots.get(name);
    if (slot) await this.launch(slot);
  }

  /** The daemon's own pid: from its pid file when it has one, else the child's. */
  async pid(name: DaemonName): Promise<number | null> {
    const slot = this.slots.get(name);
    if (!slot?.child || slot.child.exitCode !== null || slot.child.signalCode !== null) return null;
    if (slot.spec.pidFile) {
      const fromFile = await livePidFromFile(slot.spec.pidFile);
      if (fromFile) return fromFile;
    }
    return slot.child.pid ?? null;
  }

  async state(name: DaemonName): Promise<DaemonState | null> {
    const slot = this.slots.get(name);
    if (!slot) return null;
    const pid = await this.pid(name);
    const tail = slot.output.slice(-3).join(' | ');
    const why =
      slot.lastError + (tail ? ` Last output: ${tail}` : '') + (slot.spec.hint ? ` ${slot.spec.hint}` : '');
    const hold = this.activeHold(slot);
    // Stopped (or stopping, or starting again) on purpose for a restore: not down, and not running.
    if (hold && slot.phase !== 'running' && slot.phase !== 'failed' && slot.phase !== 'backoff')
      return {
        name,
        state: 'stopped',
        pid: slot.phase === 'stopped' || slot.phase === 'idle' ? null : pid,
        since: null,
        detail: `Stopped for a restore since ${new Date(hold.since).toISOString().slice(11, 19)} UTC; Mailroom starts it again when the restore ends.`,
        pending: 'restore',
      };
    if (slot.restarting && slot.phase !== 'running' && slot.phase !== 'failed' && slot.phase !== 'backoff')
      return {
        name,
        state: 'stopped',
        pid,
        since: null,
        detail: `Restarting from ${slot.spec.configPath}.`,
        pending: 'restarting',
      };
    switch (slot.phase) {
      case 'running':
        return {
          name,
          state: 'running',
          pid,
          since: slot.since,
          detail: `Run by Mailroom from ${slot.spec.configPath}${slot.restarts ? ` (restarted ${slot.restarts} time${slot.restarts === 1 ? '' : 's'})` : ''}.`,
        };
      case 'starting':
        return {
          name,
          state: 'stopped',
          pid,
          since: null,
          detail: `Starting from ${slot.spec.configPath}.`,
          pending: 'starting',
        };
      case 'backoff':
        return {
          name,
          state: 'failed',
          pid: null,
          since: null,
          detail: `${why} Mailroom restarts it shortly (attempt ${slot.crashes + 1} of ${this.o.maxCrashes}).`,
        };
      case 'failed':
        return {
          name,
          state: 'failed',
          pid: null,
          since: null,
          detail: `${why} Mailroom gave up after ${slot.crashes} failed start${slot.crashes === 1 ? '' : 's'}; fix the cause and save the settings again, or restart Mailroom.`,
        };
      case 'stopping':
        return { name, state: 'stopped', pid, since: null, detail: 'Stopping.', pending: 'stopping' };
      case 'idle':
        // Never started yet, or its restart after a crash is about to begin.
        return {
          name,
          state: 'stopped',
          pid: null,
          since: null,
          detail: slot.lastError || 'Not started yet.',
          ...(slot.lastError ? {} : { pending: 'starting' as const }),
        };
      case 'stopped':
        return {
          name,
          state: 'stopped',
          pid: null,
          since: null,
          detail: slot.lastError || 'Not started.',
          // Its files are not rendered yet: Mailroom starts it once they are.
          ...(/has not been rendered yet/.test(slot.lastError) ? { pending: 'starting' as const } : {}),
        };
    }
  }

  /**
   * Marks an intended stop of `name` (before stopping it) so its state says why it is not running;
   * null ends the mark. The mark also ends when the daemon runs again or `forMs` has passed.
   */
  hold(name: DaemonName, hold: DaemonHold | null): void {
    const slot = this.slots.get(name);
    if (!slot) return;
    if (!hold) {
      slot.hold = null;
      return;
    }
    const now = this.now();
    slot.hold = { why: hold.why, since: slot.hold?.since ?? now, until: now + hold.forMs };
  }

  private activeHold(slot: Slot): Slot['hold'] {
    if (slot.hold && this.now() >= slot.hold.until) {
      this.o.log?.(`${slot.spec.name}: the hold for a ${slot.hold.why} ran out; it is not pending any more`);
      slot.hold = null;
    }
    return slot.hold;
  }

  async reload(name: DaemonName): Promise<ReloadResult> {
    const slot = this.slots.get(name);
    if (!slot) return { ok: true, attempted: false, output: `${name} is not run by Mailroom.` };
    if (slot.phase === 'failed' || slot.phase === 'stopped' || slot.phase === 'idle') {
      // A failed daemon gets a fresh start: the new files may be the fix.
      if (slot.phase === 'failed' && !this.closing) {
        slot.crashes = 0;
        await this.launch(slot);
        const st = await this.state(name);
        return {
          ok: st?.state === 'running',
          attempted: true,
          output: st?.state === 'running' ? `${name} started with the new files.` : (st?.detail ?? ''),
        };
      }
      return {
        ok: true,
        attempted: false,
        output: `${name} is not running; it reads the new files when it starts.`,
      };
    }
    if (slot.phase !== 'running') {
      return {
        ok: true,
        attempted: false,
        output: `${name} is starting; it reads the new files as it starts.`,
      };
    }
    const r = slot.spec.reload;
    if ('signal' in r) {
      const pid = await this.pid(name);
      if (!pid) return { ok: false, attempted: true, output: `${name} has no live process to signal.` };
      try {
        process.kill(pid, r.signal);
        return { ok: true, attempted: true, output: `Sent ${r.signal} to ${name} (pid ${pid}).` };
      } catch (err) {
        return { ok: false, attempted: true, output: `Could not signal ${name}: ${(err as Error).message}` };
      }
    }
    const res = await runCommand(r.command, r.args, slot.spec.env);
    return {
      ok: res.ok,
      attempted: true,
      output: `${[r.command, ...r.args].join(' ')}: ${res.out || (res.ok ? 'done' : 'failed')}`,
    };
  }

  /** Stops every daemon and waits until each process is gone. */
  async close(): Promise<void> {
    this.closing = true;
    await Promise.all([...this.slots.values()].map((s) => this.stopSlot(s)));
  }

  async stop(name: DaemonName): Promise<void> {
    const slot = this.slots.get(name);
    if (slot) await this.stopSlot(slot);
  }

  /** Stops and starts it again; while it does, its state says `pending: 'restarting'` (not down). */
  async restart(name: DaemonName): Promise<void> {
    const slot = this.slots.get(name);
    if (!slot) return;
    slot.restarting = true;
    try {
      await this.stopSlot(slot);
      slot.crashes = 0;
      await this.launch(slot);
    } finally {
      slot.restarting = false;
    }
  }

  private async stopSlot(slot: Slot, keepError = false): Promise<void> {
    if (slot.timer) clearTimeout(slot.timer);
    slot.timer = null;
    const child = slot.child;
    if (!child || !slot.exited || child.exitCode !== null || child.signalCode !== null) {
      slot.phase = 'stopped';
      if (!keepError) slot.lastError = 'Stopped by Mailroom.';
      return;
    }
    slot.phase = 'stopping';
    const pid = await this.pid(slot.spec.name);
    if (slot.spec.stop) {
      const r = await runCommand(slot.spec.stop.command, slot.spec.stop.args, slot.spec.env);
      if (!r.ok) this.o.log?.(`${slot.spec.name}: stop command failed`, { output: r.out });
    } else if (pid) {
      signal(pid, 'SIGTERM');
    }
    const gone = await Promise.race([
      slot.exited.then(() => true),
      sleep(this.o.stopTimeoutMs).then(() => false),
    ]);
    if (!gone) {
      this.o.log?.(`${slot.spec.name}: did not stop in time; killing it`);
      if (pid) signal(pid, 'SIGKILL');
      if (child.pid) signal(-child.pid, 'SIGKILL');
      await slot.exited;
    }
    // A daemon that forked (Postfix's master) outlives the wrapper only if it ignored the stop.
    if (pid && pid !== child.pid && isAlive(pid)) {
      signal(pid, 'SIGTERM');
      for (let i = 0; i < 50 && isAlive(pid); i++) await sleep(100);
      if (isAlive(pid)) signal(pid, 'SIGKILL');
    }
    if (slot.spec.recordPid) await fs.rm(slot.spec.recordPid, { force: true }).catch(() => undefined);
    slot.phase = 'stopped';
    if (!keepError) slot.lastError = 'Stopped by Mailroom.';
  }

  private async launch(slot: Slot): Promise<void> {
    if (this.closing || slot.phase === 'starting' || slot.phase === 'running' || slot.phase === 'stopping')
      return;
    if (slot.timer) clearTimeout(slot.timer);
    slot.timer = null;
    const { spec } = slot;
    try {
      await fs.access(spec.configPath);
    } catch {
      slot.phase = 'stopped';
      slot.lastError = `Its configuration ${spec.configPath} has not been rendered yet.`;
      return;
    }
    for (const f of spec.folders ?? []) await makeFolder(f);
    slot.phase = 'starting';
    await this.endStale(spec);
    slot.output = [];
    slot.startedAt = Date.now();
    const child = spawn(spec.program, spec.args, {
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: spec.env ?? process.env,
    });
    slot.child = child;
    const keep = (d: Buffer) => {
      for (const line of d.toString().split('\n')) {
        if (line.trim()) slot.output.push(line.trim());
      }
      if (slot.output.length > OUTPUT_LINES) slot.output.splice(0, slot.output.length - OUTPUT_LINES);
    };
    child.stdout?.on('data', keep);
    child.stderr?.on('data', keep);
    slot.exited = new Promise<void>((resolve) => {
      child.once('exit', (code, sig) => {
        resolve();
        this.onExit(slot, child, code, sig);
      });
      child.once('error', (err) => {
        slot.output.push(err.message);
        resolve();
        this.onExit(slot, child, null, null);
      });
    });
    this.o.log?.(`${spec.name}: starting`, { program: spec.program, args: spec.args });
    if (spec.recordPid && child.pid)
      await fs.writeFile(spec.recordPid, `${child.pid}\n`).catch(() => undefined);

    const readyMs = Math.max(this.o.readyTimeoutMs, spec.readyTimeoutMs ?? 0);
    const deadline = Date.now() + readyMs;
    for (;;) {
      if (slot.child !== child || slot.phase !== 'starting') return;
      if (await allReady(spec.ready)) break;
      if (Date.now() > deadline) {
        slot.lastError = `${spec.name} did not answer within ${Math.round(readyMs / 1000)} s.`;
        this.o.log?.(`${spec.name}: not ready in time; stopping it`, { output: slot.output });
        await this.stopSlot(slot, true);
        this.scheduleRestart(slot);
        return;
      }
      await sleep(100);
    }
    slot.phase = 'running';
    // Running again: an intended stop is over.
    slot.hold = null;
    slot.since = new Date().toISOString();
    this.o.log?.(`${spec.name}: running`, { pid: await this.pid(spec.name) });
  }

  /**
   * An instance left by an earlier Mailroom of the same data folder (killed without a clean stop:
   * kill -9 of its supervisor) holds the pid file: end it before starting, with the daemon's own
   * stop command when it has one, else SIGTERM, then SIGKILL. A pid that /proc does not show
   * running this program on this folder's files is left alone (see `runsFrom`).
   */
  private async endStale(spec: DaemonSpec): Promise<void> {
    const home = spec.home ?? path.dirname(spec.configPath);
    const candidates = [spec.pidFile, spec.recordPid].filter((f): f is string => !!f);
    for (const file of candidates) {
      const stale = await livePidFromFile(file);
      if (!stale || stale === process.pid) continue;
      if (!(await runsFrom(stale, spec.program, home))) {
        this.o.log?.(`${spec.name}: the pid in ${file} is not an instance of these files; left alone`, {
          pid: stale,
          cmdline: await commandLine(stale),
        });
        continue;
      }
      this.o.log?.(`${spec.name}: ending the instance left running from these files`, { pid: stale });
      if (spec.stop && file === spec.pidFile) {
        const r = await runCommand(spec.stop.command, spec.stop.args, spec.env);
        if (!r.ok) this.o.log?.(`${spec.name}: stop command failed`, { output: r.out });
        for (let i = 0; i < 100 && isAlive(stale); i++) await sleep(100);
      }
      if (isAlive(stale)) signal(stale, 'SIGTERM');
      for (let i = 0; i < 100 && isAlive(stale); i++) await sleep(100);
      if (isAlive(stale)) {
        this.o.log?.(`${spec.name}: the instance left running did not stop; killing it`, { pid: stale });
        signal(stale, 'SIGKILL');
        for (let i = 0; i < 50 && isAlive(stale); i++) await sleep(100);
      }
      return;
    }
  }

  private onExit(slot: Slot, child: ChildProcess, code: number | null, sig: NodeJS.Signals | null): void {
    if (slot.child !== child) return;
    const was = slot.phase;
    if (was === 'stopping' || was === 'stopped' || this.closing) return;
    slot.lastError = `${slot.spec.name} exited (${sig ? `signal ${sig}` : `code ${code}`}).`;
    this.o.log?.(`${slot.spec.name}: exited`, { code, signal: sig, output: slot.output.slice(-5) });
    if (Date.now() - slot.startedAt >= this.o.stableMs) slot.crashes = 0;
    this.scheduleRestart(slot);
  }

  private scheduleRestart(slot: Slot): void {
    if (this.closing) return;
    slot.crashes += 1;
    if (slot.crashes >= this.o.maxCrashes) {
      slot.phase = 'failed';
      this.o.log?.(`${slot.spec.name}: failed ${slot.crashes} times in a row; not restarting`);
      return;
    }
    slot.phase = 'backoff';
    const delay = Math.min(this.o.backoffMs * 2 ** (slot.crashes - 1), this.o.maxBackoffMs);
    slot.timer = setTimeout(() => {
      slot.timer = null;
      slot.phase = 'idle';
      slot.restarts += 1;
      void this.launch(slot);
    }, delay);
    slot.timer.unref();
  }
}

async function makeFolder(f: string | { path: string; owner: string; mode: number }): Promise<void> {
  if (typeof f === 'string') {
    await fs.mkdir(f, { recursive: true });
    return;
  }
  const created = await fs.mkdir(f.path, { recursive: true });
  if (created === undefined) return;
  await fs.chmod(f.path, f.mode);
  const ids = await new Promise<{ uid: number; gid: number } | null>((resolve) =>
    execFile('id', [f.owner], (err, out) => {
      const uid = /uid=(\d+)/.exec(String(out))?.[1];
      const gid = /gid=(\d+)/.exec(String(out))?.[1];
      resolve(err || !uid || !gid ? null : { uid: Number(uid), gid: Number(gid) });
    }),
  );
  if (ids) await fs.chown(f.path, ids.uid, 0).catch(() => undefined);
}

const readText = async (p: string) => {
  try {
    return await fs.readFile(p, 'utf8');
  } catch {
    return '';
  }
};
const readLink = async (p: string) => {
  try {
    return await fs.readlink(p);
  } catch {
    return '';
  }
};

/**
 * Whether `pid` is an instance of `program` on the files under `home`, as /proc shows it: its
 * executable or command line names the program (Postfix's master lives in postfix's folder;
 * PHP-FPM and rspamd rewrite their command line), and its command line, environment
 * (Postfix's MAIL_CONFIG), working folder or an open file (rspamd's log) is under `home`.
 */
export async function runsFrom(pid: number, program: string, home: string): Promise<boolean> {
  const [cmd, exe, env, cwd] = await Promise.all([
    commandLine(pid),
    readLink(`/proc/${pid}/exe`),
    readText(`/proc/${pid}/environ`),
    readLink(`/proc/${pid}/cwd`),
  ]);
  const prog = path.basename(program);
  if (!cmd.includes(prog) && !exe.includes(prog)) return false;
  const root = path.resolve(home);
  const under = (p: string) => p === root || p.startsWith(`${root}/`);
  if (cmd.split(/[\s=()]+/).some(under)) return true;
  if (env.split('\0').some((e) => under(e.slice(e.indexOf('=') + 1)))) return true;
  if (under(cwd)) return true;
  let fds: string[] = [];
  try {
    fds = await fs.readdir(`/proc/${pid}/fd`);
  } catch {
    return false;
  }
  for (const fd of fds) if (under(await readLink(`/proc/${pid}/fd/${fd}`))) return true;
  return false;
}

/** A process's command line ('' when it is gone or /proc is not there). */
async function commandLine(pid: number): Promise<string> {
  try {
    return (await fs.readFile(`/proc/${pid}/cmdline`, 'utf8')).replace(/\0/g, ' ');
  } catch {
    return '';
  }
}

function signal(pid: number, sig: NodeJS.Signals): void {
  try {
    process.kill(pid, sig);
  } catch {
    /* already gone */
  }
}

async function allReady(probes: ReadinessProbe[]): Promise<boolean> {
  for (const p of probes) if (!(await probe(p))) return false;
  return true;
}
