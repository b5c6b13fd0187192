import { type ChildProcess, spawn } from 'node:child_process';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { DaemonHold, DaemonName, DaemonState, ReloadResult } from './service-control.ts';
import {
  allReady,
  commandLine,
  isAlive,
  livePidFromFile,
  makeFolder,
  runCommand,
  runsFrom,
  signal,
} from './supervisor-process.ts';
import { slotState } from './supervisor-state.ts';
import {
  type DaemonSpec,
  OUTPUT_LINES,
  type Slot,
  type SupervisorOptions,
  sleep,
} from './supervisor-types.ts';

export { isAlive, livePidFromFile, runsFrom } from './supervisor-process.ts';
export type { DaemonSpec, SupervisorOptions } from './supervisor-types.ts';

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
    return slotState(name, slot, pid, this.activeHold(slot), this.o.maxCrashes);
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
