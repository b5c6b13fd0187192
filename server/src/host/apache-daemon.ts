import { existsSync } from 'node:fs';
import type { Host } from './host.ts';
import type { DaemonName } from './service-control.ts';
import { type DaemonSpec, Supervisor, type SupervisorOptions } from './supervisor.ts';

/** What the web area needs to run Apache itself in local mode. */
export interface ApacheDaemonPaths {
  /** System paths (mapped by the Host). */
  dir: string;
  main: string;
  pidFile: string;
  folders: string[];
  port: number;
}

export interface ApacheDaemonState {
  state: 'running' | 'stopped' | 'failed' | 'not-installed' | 'unmanaged';
  pid: number | null;
  since: string | null;
  detail: string;
}

/**
 * Apache under Mailroom's supervisor (local mode, as root, like the mail daemons): started once its
 * files are rendered, restarted with backoff when it crashes, gracefully reloaded (SIGUSR1) after a
 * checked change, stopped with Mailroom (SIGTERM). The supervisor keys its daemons by the mail
 * area's names; Apache is the only one of this supervisor, under its own name.
 */
export class ApacheDaemon {
  private readonly supervisor: Supervisor;
  private readonly name = 'apache2' as unknown as DaemonName;
  private started = false;
  private closed = false;

  private constructor(
    private readonly spec: DaemonSpec,
    opts: SupervisorOptions,
  ) {
    this.supervisor = new Supervisor([spec], opts);
  }

  static async create(
    host: Host,
    p: ApacheDaemonPaths,
    opts: SupervisorOptions = {},
  ): Promise<ApacheDaemon | null> {
    const bin = await host.which('apache2');
    if (!bin) return null;
    const dir = host.path(p.dir);
    const spec: DaemonSpec = {
      name: 'apache2' as unknown as DaemonName,
      program: bin,
      args: ['-d', dir, '-f', host.path(p.main), '-DFOREGROUND'],
      configPath: host.path(p.main),
      ready: [{ tcp: { host: '127.0.0.1', port: p.port } }],
      pidFile: host.path(p.pidFile),
      folders: p.folders.map((f) => host.path(f)),
      reload: { signal: 'SIGUSR1' },
      env: { ...process.env, LANG: 'C' },
      hint: `\`apache2 -t -d ${dir} -f ${host.path(p.main)}\` checks the files; Apache logs in ${host.path('/var/log/apache2')}.`,
    };
    return new ApacheDaemon(spec, opts);
  }

  /** Starts Apache once its main file exists (the first web apply writes it). */
  async start(): Promise<void> {
    // Closed meanwhile (Mailroom stopping during the first render): never start it afterwards.
    if (this.closed || !existsSync(this.spec.configPath)) return;
    this.started = true;
    await this.supervisor.start(this.name);
  }

  async state(): Promise<ApacheDaemonState | null> {
    if (!this.started) return null;
    const st = await this.supervisor.state(this.name);
    return st ? { state: st.state, pid: st.pid, since: st.since, detail: st.detail } : null;
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.supervisor.close();
  }
}
