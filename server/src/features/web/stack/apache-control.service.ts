import type { Config } from '../../../config.ts';
import type { Host } from '../../../host/host.ts';
import type { ApacheDaemon } from '../../../host/apache-daemon.ts';
import { apachePid, gracefulByPid, processUptimeSeconds } from '../../../host/apache-host.ts';
import { APACHE_PATHS, type ApacheMode } from './apache.layout.ts';

export interface ApacheReload {
  ok: boolean;
  attempted: boolean;
  output: string;
}

export interface ApacheState {
  state: 'running' | 'stopped' | 'not-installed' | 'unmanaged';
  pid: number | null;
  uptime: number | null;
  detail: string;
}

/** The system-mode reloads (allowed by deploy/sudoers, through `sudo -n` when not root). */
export const APACHE_RELOAD = ['/usr/bin/systemctl', 'reload', 'apache2.service'] as const;
export const APACHE_START = ['/usr/bin/systemctl', 'start', 'apache2.service'] as const;
const RELOADS_OFF: ApacheReload = {
  ok: true,
  attempted: false,
  output: 'Reloads are off (MAILROOM_RELOAD is not set).',
};
export const phpFpmReload = (version: string) =>
  ['/usr/bin/systemctl', 'reload', `php${version}-fpm.service`] as const;

/**
 * Reloads and reports Apache. Local mode: the Apache running from Mailroom's files (its pid file
 * under the data folder) gets a graceful restart (SIGUSR1). System mode: `systemctl reload
 * apache2.service` (through `sudo -n` when not root: deploy/sudoers), only with MAILROOM_RELOAD.
 */
export class ApacheControl {
  constructor(
    private readonly host: Host,
    readonly mode: ApacheMode,
    private readonly daemon: ApacheDaemon | null = null,
  ) {}

  static modeOf(host: Host, config: Pick<Config, 'web'>): ApacheMode {
    const system = host.root === '/';
    return {
      system,
      httpPort: config.web.httpPort,
      httpsPort: config.web.httpsPort,
      hostPath: (p: string) => host.path(p),
    };
  }

  /** The command logrotate runs after rotating (the same reload). */
  reloadCommand(): string {
    if (this.mode.system) return '/usr/bin/systemctl reload apache2.service';
    return `/bin/kill -USR1 $(cat ${this.host.path(APACHE_PATHS.pidFile)})`;
  }

  /**
   * `systemctl <verb> apache2.service` as root, else through `sudo -n` (deploy/sudoers allows these
   * verbs on apache2), only with MAILROOM_RELOAD. `notActive`: the unit was not running.
   */
  private async systemctl(
    args: readonly string[],
    done: string,
  ): Promise<ApacheReload & { notActive: boolean; words: string }> {
    if (!this.host.reloadEnabled) return { ...RELOADS_OFF, notActive: false, words: '' };
    const root = typeof process.getuid === 'function' && process.getuid() === 0;
    const res = root
      ? await this.host.run(args[0]!, args.slice(1))
      : await this.host.run('/usr/bin/sudo', ['-n', ...args]);
    const words = `${res.stdout}${res.stderr}`.trim();
    const ok = res.code === 0;
    return {
      ok,
      attempted: true,
      output: `systemctl ${args.slice(1).join(' ')}: ${ok ? done : words}`,
      notActive: !ok && /not active|inactive/i.test(words),
      words,
    };
  }

  async reload(): Promise<ApacheReload> {
    if (!this.mode.system) return gracefulByPid(this.host, APACHE_PATHS.pidFile);
    const r = await this.systemctl(APACHE_RELOAD, 'done');
    if (r.notActive)
      return { ok: true, attempted: false, output: `apache2 is not running; nothing reloaded (${r.words})` };
    return { ok: r.ok, attempted: r.attempted, output: r.output };
  }

  /**
   * System mode: starts apache2.service again. Debian's unit restarts Apache only after an abort, so
   * an Apache that exited on a refused graceful restart stays down until someone starts it: the
   * apply's restore step does, once the last good files are back. Local mode: the supervisor
   * restarts the Apache it runs, so nothing is done here.
   */
  async start(): Promise<ApacheReload> {
    if (!this.mode.system)
      return { ok: true, attempted: false, output: "Mailroom's supervisor starts Apache again." };
    const r = await this.systemctl(APACHE_START, 'started again on the last good files');
    return { ok: r.ok, attempted: r.attempted, output: r.output };
  }

  async state(): Promise<ApacheState> {
    const run = await this.daemon?.state();
    if (run) {
      return {
        state: run.state === 'failed' ? 'stopped' : run.state,
        pid: run.pid,
        uptime: run.pid ? await processUptimeSeconds(run.pid) : null,
        detail: run.detail,
      };
    }
    const bin = await this.host.which('apache2');
    if (!bin)
      return {
        state: 'not-installed',
        pid: null,
        uptime: null,
        detail: 'apache2 is not installed (Debian package apache2).',
      };
    const pidFile = this.mode.system ? '/run/apache2/apache2.pid' : APACHE_PATHS.pidFile;
    const pid = await apachePid(this.host, pidFile);
    if (!pid)
      return {
        state: this.mode.system ? 'stopped' : 'unmanaged',
        pid: null,
        uptime: null,
        detail: this.mode.system
          ? 'apache2.service is not running (systemctl start apache2).'
          : `Apache is not running from Mailroom's files. Start it with \`apache2 -d ${this.host.path(APACHE_PATHS.dir)} -f ${this.host.path(APACHE_PATHS.main)} -DFOREGROUND\`.`,
      };
    return {
      state: 'running',
      pid,
      uptime: await processUptimeSeconds(pid),
      detail: `Running from Mailroom's files (pid ${pid}).`,
    };
  }
}
