import { existsSync } from 'node:fs';
import type { Host } from './host.ts';
import type { DaemonName } from './service-control.ts';
import { type DaemonSpec, Supervisor, type SupervisorOptions } from './supervisor.ts';

/** What the web area needs to run one PHP-FPM master itself in local mode (system paths). */
export interface PhpFpmDaemonPaths {
  version: string;
  main: string;
  pidFile: string;
  /** A socket the master listens on (its own idle pool): up when it accepts. */
  socket: string;
  folders: string[];
}

export interface PhpFpmDaemonState {
  state: 'running' | 'stopped' | 'failed' | 'not-installed' | 'unmanaged';
  pid: number | null;
  since: string | null;
  detail: string;
}

/**
 * One PHP-FPM master under Mailroom's supervisor (local mode as root, beside the Apache it runs):
 * started once a site's pool is rendered, gracefully reloaded (SIGUSR2) after a checked change,
 * restarted with backoff when it crashes, stopped with Mailroom (SIGTERM).
 */
export class PhpFpmDaemon {
  private readonly supervisor: Supervisor;
  private readonly name: DaemonName;
  private started = false;

  private constructor(
    readonly version: string,
    private readonly spec: DaemonSpec,
    opts: SupervisorOptions,
  ) {
    this.name = spec.name;
    this.supervisor = new Supervisor([spec], opts);
  }

  static create(
    host: Host,
    program: string,
    p: PhpFpmDaemonPaths,
    opts: SupervisorOptions = {},
  ): PhpFpmDaemon {
    const main = host.path(p.main);
    const spec: DaemonSpec = {
      name: `php${p.version}-fpm` as unknown as DaemonName,
      program,
      args: ['--nodaemonize', '--fpm-config', main],
      configPath: main,
      ready: [{ socket: host.path(p.socket) }],
      pidFile: host.path(p.pidFile),
      folders: p.folders.map((f) => host.path(f)),
      reload: { signal: 'SIGUSR2' },
      env: { ...process.env, LANG: 'C' },
      hint: `\`${program} -t -y ${main}\` checks the pools; PHP-FPM logs in ${host.path('/var/log')}.`,
    };
    return new PhpFpmDaemon(p.version, spec, opts);
  }

  /** Starts the master once its main file exists; a running one is left alone. */
  async start(): Promise<void> {
    if (this.started || !existsSync(this.spec.configPath)) return;
    this.started = true;
    await this.supervisor.start(this.name);
  }

  get running(): boolean {
    return this.started;
  }

  /** Graceful reload (SIGUSR2); a failed master gets a fresh start. */
  async reload(): Promise<{ ok: boolean; attempted: boolean; output: string }> {
    if (!this.started)
      return { ok: true, attempted: false, output: `php${this.version}-fpm is not running.` };
    return this.supervisor.reload(this.name);
  }

  async state(): Promise<PhpFpmDaemonState | null> {
    if (!this.started) return null;
    const st = await this.supervisor.state(this.name);
    return st ? { state: st.state, pid: st.pid, since: st.since, detail: st.detail } : null;
  }

  async close(): Promise<void> {
    await this.supervisor.close();
  }
}
