import path from 'node:path';
import { existsSync } from 'node:fs';
import type { Config } from '../config.ts';
import { DAEMON_PACKAGES, daemonSpecs, type SpecOrMissing } from './daemon-specs.ts';
import type { Host } from './host.ts';
import { SharedReading, sharedReading } from './shared-reading.ts';
import type { DaemonHold, DaemonName, DaemonState, ReloadResult, ServiceControl } from './service-control.ts';
import { type DaemonSpec, livePidFromFile, Supervisor, type SupervisorOptions } from './supervisor.ts';

/** Why Mailroom does not run the daemons itself, or null when it does. */
export function notRunReason(
  config: Pick<Config, 'runDaemons' | 'hostRoot'>,
  isRoot: boolean,
): string | null {
  if (config.hostRoot === '/') return 'In system mode systemd runs the daemons; Mailroom only reloads them.';
  if (!config.runDaemons)
    return 'MAILROOM_RUN_DAEMONS=0, so Mailroom does not start the mail and DNS daemons.';
  if (!isRoot) return 'Mailroom is not running as root, so it does not start the mail and DNS daemons.';
  return null;
}

const runningAs = () => typeof process.getuid === 'function' && process.getuid() === 0;

/** The state of an instance found through its pid file (one Mailroom did not start). */
async function observed(s: SpecOrMissing, reason: string): Promise<DaemonState> {
  if (!s.spec) {
    return {
      name: s.name,
      state: 'not-installed',
      pid: null,
      since: null,
      detail: `${s.name} is not installed (Debian package ${DAEMON_PACKAGES[s.name]}).`,
    };
  }
  const file = s.spec.pidFile ?? s.spec.recordPid;
  const pid = file ? await livePidFromFile(file) : null;
  if (pid) {
    return {
      name: s.name,
      state: 'running',
      pid,
      since: null,
      detail: `Running from Mailroom's files (pid file ${file}), started outside Mailroom. ${reason}`,
    };
  }
  return {
    name: s.name,
    state: 'unmanaged',
    pid: null,
    since: null,
    detail: `${reason} Start it with \`${s.command}\`.`,
  };
}

/**
 * Local mode's ServiceControl: runs the daemons under a Supervisor when Mailroom may (root, programs
 * installed, MAILROOM_RUN_DAEMONS not 0); otherwise it only reports what runs from its files and why
 * Mailroom does not start them.
 */
export class LocalServices implements ServiceControl {
  readonly mode = 'local' as const;
  private supervisor: Supervisor | null = null;
  private started = false;
  private closed = false;

  private constructor(
    private readonly specs: SpecOrMissing[],
    private readonly reason: string | null,
    opts: SupervisorOptions,
  ) {
    const runnable = specs.flatMap((s) => (s.spec ? [s.spec] : []));
    if (!reason && runnable.length) this.supervisor = new Supervisor(runnable, opts);
  }

  static async create(
    host: Host,
    config: Pick<Config, 'runDaemons' | 'hostRoot' | 'ports'>,
    opts: SupervisorOptions & { isRoot?: boolean; only?: DaemonName[]; rspamdMilterPort?: number } = {},
  ): Promise<LocalServices> {
    const isRoot = opts.isRoot ?? runningAs();
    let specs = await daemonSpecs(host, config, { asRoot: isRoot, rspamdMilterPort: opts.rspamdMilterPort });
    if (opts.only) specs = specs.filter((s) => opts.only?.includes(s.name));
    // What a previous Mailroom of this data folder left running is recognised by the host root.
    specs = specs.map((s) => (s.spec ? { ...s, spec: { home: path.resolve(host.root), ...s.spec } } : s));
    return new LocalServices(specs, notRunReason(config, isRoot), opts);
  }

  /**
   * A LocalServices over the given specs, run as root would (tests and benches: stand-in daemons
   * under the real supervisor).
   */
  static ofSpecs(specs: DaemonSpec[], opts: SupervisorOptions = {}): LocalServices {
    return new LocalServices(
      specs.map((spec) => ({ name: spec.name, spec, command: spec.program })),
      null,
      opts,
    );
  }

  /** Whether Mailroom runs the daemons (and why not, when it does not). */
  get runs(): { yes: boolean; reason: string | null } {
    return { yes: this.supervisor !== null, reason: this.reason };
  }

  /**
   * Starts every installed daemon once its main file is rendered (waiting up to `waitMs` for the
   * first render at start); resolves when each is up, failed or still unrendered.
   */
  async start(waitMs = 20_000): Promise<void> {
    const sup = this.supervisor;
    if (!sup) return;
    this.started = true;
    await Promise.all(
      this.specs.map(async (s) => {
        if (!s.spec) return;
        const until = Date.now() + waitMs;
        while (!existsSync(s.spec.configPath) && Date.now() < until && !this.closed) {
          await new Promise((r) => setTimeout(r, 200));
        }
        if (!this.closed) await sup.start(s.name);
        this.reading.invalidate();
      }),
    );
  }

  async reload(name: DaemonName): Promise<ReloadResult> {
    try {
      return await this.reloadNow(name);
    } finally {
      this.reading.invalidate();
    }
  }

  private async reloadNow(name: DaemonName): Promise<ReloadResult> {
    if (!this.supervisor || !this.started || !this.supervisor.names().includes(name)) {
      const s = this.specs.find((x) => x.name === name);
      const why = !s?.spec ? `${name} is not installed.` : (this.reason ?? `${name} is not started yet.`);
      return { ok: true, attempted: false, output: `${why} It was not reloaded.` };
    }
    const state = await this.supervisor.state(name);
    if (state?.state === 'stopped' && /not been rendered/.test(state.detail)) {
      // Its first configuration has just been written: start it now.
      await this.supervisor.start(name);
      const after = await this.supervisor.state(name);
      return {
        ok: after?.state === 'running',
        attempted: true,
        output: after?.state === 'running' ? `${name} started.` : (after?.detail ?? ''),
      };
    }
    return this.supervisor.reload(name);
  }

  /** Start, stop or restart through the supervisor; says why not when Mailroom does not run it. */
  async control(name: DaemonName, action: 'start' | 'stop' | 'restart'): Promise<ReloadResult> {
    try {
      return await this.controlNow(name, action);
    } finally {
      this.reading.invalidate();
    }
  }

  private async controlNow(name: DaemonName, action: 'start' | 'stop' | 'restart'): Promise<ReloadResult> {
    const sup = this.supervisor;
    if (!sup || !sup.names().includes(name)) {
      const s = this.specs.find((x) => x.name === name);
      const why = !s?.spec ? `${name} is not installed.` : (this.reason ?? `${name} is not run by Mailroom.`);
      return { ok: false, attempted: false, output: why };
    }
    if (action === 'restart') {
      this.started = true;
      await sup.restart(name);
    } else if (action === 'stop') await sup.stop(name);
    else {
      this.started = true;
      await sup.start(name);
    }
    const st = await sup.state(name);
    const want = action === 'stop' ? 'stopped' : 'running';
    return {
      ok: st?.state === want,
      attempted: true,
      output:
        st?.state === want ? `${name} ${action === 'stop' ? 'stopped' : 'started'}.` : (st?.detail ?? ''),
    };
  }

  /** Marks (or unmarks) an intended stop: the states say why it is not running (a restore). */
  async hold(name: DaemonName, hold: DaemonHold | null): Promise<void> {
    this.supervisor?.hold(name, hold);
    this.reading.invalidate();
  }

  /** The supervisor's own knowledge, read at most once a second (and afresh after an action). */
  states(): Promise<DaemonState[]> {
    return this.reading.get();
  }

  private readonly reading = new SharedReading(() => this.readStates());

  private async readStates(): Promise<DaemonState[]> {
    return Promise.all(
      this.specs.map(async (s) => {
        if (this.supervisor && s.spec) {
          const st = await this.supervisor.state(s.name);
          if (st && !(st.state === 'stopped' && !this.started)) return st;
          if (st)
            return { ...st, detail: 'Mailroom starts it once its files are rendered.', pending: 'starting' };
        }
        return observed(s, this.reason ?? '');
      }),
    );
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.supervisor?.close();
    this.reading.invalidate();
  }
}

/** States of the daemons from their pid files only (no deps.services: nothing is run or reloaded). */
export function observeDaemons(
  host: Host,
  config: Pick<Config, 'runDaemons' | 'hostRoot' | 'ports'>,
): Promise<DaemonState[]> {
  // One reading a second for every request of this process (issue 22 #21): programs, pid files.
  const key = `observe-daemons:${host.root}:${config.runDaemons}:${JSON.stringify(config.ports)}`;
  return sharedReading(key, async () => {
    const specs = await daemonSpecs(host, config);
    const reason = notRunReason(config, runningAs()) ?? 'Mailroom was started without its daemon supervisor.';
    return Promise.all(specs.map((s) => observed(s, reason)));
  }).get();
}
