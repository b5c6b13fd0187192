import { PHP_VERSIONS } from '@mailroom/contract/web/vhosts';
import type { Host } from '../../../host/host.ts';
import { PhpFpmDaemon } from '../../../host/php-fpm-daemon.ts';
import { phpFpmPid, phpFpmProgram, reloadPhpFpmByPid } from '../../../host/php-fpm-host.ts';
import { processUptimeSeconds } from '../../../host/apache-host.ts';
import type { SupervisorOptions } from '../../../host/supervisor.ts';
import { phpFpmReload } from '../stack/apache-control.service.ts';
import type { ApacheMode } from '../stack/apache.layout.ts';
import { PHP_RUN_DIR, phpIdleSocket, phpLocalMain, phpLocalPid } from './php.layout.ts';

export interface PhpReload {
  ok: boolean;
  attempted: boolean;
  output: string;
}

export interface PhpFpmState {
  version: string;
  state: 'running' | 'stopped' | 'not-installed' | 'unmanaged';
  pid: number | null;
  uptime: number | null;
  detail: string;
}

/**
 * The PHP-FPM masters of the installed versions. Local mode with Mailroom running Apache (as
 * root): Mailroom runs one master per version from its own main file (started at the first pool,
 * reloaded with SIGUSR2, stopped with Mailroom); local mode otherwise: a master found by its pid
 * file is reloaded. System mode: `systemctl reload php<v>-fpm.service` (deploy/sudoers).
 */
export class PhpFpmControl {
  private readonly daemons = new Map<string, PhpFpmDaemon>();
  private installedCache: Promise<Map<string, string>> | null = null;

  constructor(
    private readonly host: Host,
    readonly mode: ApacheMode,
    private readonly supervise: boolean,
    private readonly log?: SupervisorOptions['log'],
  ) {}

  /** Installed versions -> program (read once: packages do not come and go under a running server). */
  installed(): Promise<Map<string, string>> {
    this.installedCache ??= (async () => {
      const out = new Map<string, string>();
      for (const v of PHP_VERSIONS) {
        const p = await phpFpmProgram(v);
        if (p) out.set(v, p);
      }
      return out;
    })();
    return this.installedCache;
  }

  /** After a swap: each version whose pools changed is reloaded (or started). */
  async reload(versions: string[]): Promise<PhpReload[]> {
    const out: PhpReload[] = [];
    const installed = await this.installed();
    for (const v of versions) {
      const program = installed.get(v);
      if (!program) continue;
      if (!this.mode.system) {
        if (this.supervise) {
          let d = this.daemons.get(v);
          if (!d) {
            d = PhpFpmDaemon.create(
              this.host,
              program,
              {
                version: v,
                main: phpLocalMain(v),
                pidFile: phpLocalPid(v),
                socket: phpIdleSocket(v),
                folders: [PHP_RUN_DIR, '/var/log'],
              },
              { ...(this.log ? { log: this.log } : {}) },
            );
            this.daemons.set(v, d);
          }
          if (!d.running) {
            await d.start();
            const st = await d.state();
            out.push({
              ok: st?.state === 'running',
              attempted: true,
              output: `php${v}-fpm: ${st?.state === 'running' ? `started (pid ${st.pid})` : (st?.detail ?? 'not started')}`,
            });
          } else {
            const r = await d.reload();
            out.push({ ...r, output: `php${v}-fpm: ${r.output}` });
          }
        } else out.push(await reloadPhpFpmByPid(this.host, phpLocalPid(v)));
        continue;
      }
      if (!this.host.reloadEnabled) {
        out.push({ ok: true, attempted: false, output: 'Reloads are off (MAILROOM_RELOAD is not set).' });
        continue;
      }
      const args: string[] = [...phpFpmReload(v)];
      const root = typeof process.getuid === 'function' && process.getuid() === 0;
      const res = root
        ? await this.host.run(args[0]!, args.slice(1))
        : await this.host.run('/usr/bin/sudo', ['-n', ...args]);
      const words = `${res.stdout}${res.stderr}`.trim();
      if (res.code !== 0 && /not active|inactive/i.test(words)) {
        out.push({ ok: true, attempted: false, output: `php${v}-fpm is not running; nothing reloaded.` });
        continue;
      }
      out.push({
        ok: res.code === 0,
        attempted: true,
        output: `systemctl reload php${v}-fpm.service: ${res.code === 0 ? 'done' : words}`,
      });
    }
    return out;
  }

  /** The real state of each installed version's master (the dashboard's PHP-FPM). */
  async states(): Promise<PhpFpmState[]> {
    const installed = await this.installed();
    const out: PhpFpmState[] = [];
    for (const v of installed.keys()) {
      const run = await this.daemons.get(v)?.state();
      if (run) {
        out.push({
          version: v,
          state: run.state === 'failed' ? 'stopped' : run.state,
          pid: run.pid,
          uptime: run.pid ? await processUptimeSeconds(run.pid) : null,
          detail: run.detail,
        });
        continue;
      }
      const pidFile = this.mode.system ? `/run/php/php${v}-fpm.pid` : phpLocalPid(v);
      const pid = await phpFpmPid(this.host, pidFile);
      out.push({
        version: v,
        state: pid ? 'running' : this.mode.system ? 'stopped' : 'unmanaged',
        pid,
        uptime: pid ? await processUptimeSeconds(pid) : null,
        detail: pid
          ? `php${v}-fpm is running (pid ${pid}).`
          : this.mode.system
            ? `php${v}-fpm.service is not running.`
            : `No site uses PHP ${v} yet, or Mailroom does not run PHP-FPM here.`,
      });
    }
    return out;
  }

  async close(): Promise<void> {
    await Promise.all([...this.daemons.values()].map((d) => d.close()));
  }
}
