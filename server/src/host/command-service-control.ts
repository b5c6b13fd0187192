import type { Host } from './host.ts';
import type { DaemonName, DaemonState, ReloadResult, ServiceControl } from './service-control.ts';

export interface CommandControlOptions {
  /** rndc's control key and port (the rendered named.conf opens 127.0.0.1:<port> with this key). */
  rndcKey?: string;
  rndcPort?: number;
}

// What each tool says when its daemon is simply not running: nothing to reload, and no sign that the
// new files are bad (the daemon reads them when it starts).
const NOT_RUNNING: Record<string, RegExp> = {
  postfix: /not running/i,
  doveadm: /not running|connect\(.*\) failed|no such file or directory/i,
  rspamadm: /not running|connection refused|no such file or directory/i,
  rndc: /connect failed|connection refused/i,
};

const OFF: ReloadResult = { ok: true, attempted: false, output: 'Reloads are off (not in system mode).' };

/**
 * The default `ServiceControl`: reloads with the daemons' own commands when `host.reloadEnabled`
 * (system mode): `postfix reload`, `doveadm reload`, `rndc reload <zone>` per zone or
 * `rndc reconfig` / `rndc reload`. It starts nothing and reports every daemon as unmanaged; the
 * local-mode supervisor replaces it. A daemon that is not running is not a failed reload: the
 * answer is `attempted: false` with the tool's words (it reads the new files when it starts).
 */
export class CommandServiceControl implements ServiceControl {
  constructor(
    private readonly host: Host,
    private readonly opts: CommandControlOptions = {},
  ) {}

  async reload(name: DaemonName, o: { zones?: string[]; reconfig?: boolean } = {}): Promise<ReloadResult> {
    if (!this.host.reloadEnabled) return OFF;
    switch (name) {
      case 'postfix':
        return this.runEach('postfix', 'postfix', [['reload']]);
      case 'dovecot':
        return this.runEach('doveadm', 'dovecot-core', [['reload']]);
      case 'rspamd':
        return this.runEach('rspamadm', 'rspamd', [['control', 'reload']]);
      case 'named': {
        const base = [
          '-k',
          this.opts.rndcKey ?? this.host.path('/etc/bind/rndc.key'),
          '-s',
          '127.0.0.1',
          '-p',
          String(this.opts.rndcPort ?? 953),
        ];
        const runs: string[][] = [];
        if (o.reconfig) runs.push(['reconfig']);
        if (o.zones?.length) for (const z of o.zones) runs.push(['reload', z]);
        if (!runs.length) runs.push(['reload']);
        return this.runEach(
          'rndc',
          'bind9',
          runs.map((r) => [...base, ...r]),
          60_000,
        );
      }
    }
  }

  /** Runs each argument list in turn; all must succeed. The output names each command. */
  private async runEach(
    cmd: string,
    pkg: string,
    runs: string[][],
    timeoutMs = 30_000,
  ): Promise<ReloadResult> {
    const bin = await this.host.which(cmd);
    if (!bin)
      return {
        ok: false,
        attempted: false,
        output: `${cmd} was not found (Debian package ${pkg}); the daemon was not reloaded.`,
      };
    const out: string[] = [];
    let ok = true;
    for (const args of runs) {
      const r = await this.host.run(bin, args, { timeoutMs });
      if (r.code !== 0 && NOT_RUNNING[cmd]?.test(r.stdout + r.stderr)) {
        const words = (r.stdout + r.stderr).trim();
        return { ok: true, attempted: false, output: `${cmd}: not running, nothing reloaded (${words})` };
      }
      ok &&= r.code === 0;
      const shown = args.filter((a, i) => !(i < 6 && cmd === 'rndc')).join(' ');
      const words = (r.stdout + r.stderr).trim();
      out.push(`${cmd} ${shown}: ${r.code === 0 ? words || 'done' : words || `exit ${r.code}`}`);
    }
    return { ok, attempted: true, output: out.join('\n') };
  }

  async states(): Promise<DaemonState[]> {
    const names: DaemonName[] = ['postfix', 'dovecot', 'rspamd', 'named'];
    return names.map((name) => ({
      name,
      state: 'unmanaged',
      pid: null,
      since: null,
      detail: 'Mailroom reloads this daemon with its own commands but does not supervise it.',
    }));
  }

  async close(): Promise<void> {
    /* nothing started */
  }
}
