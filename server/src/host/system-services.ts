import type { Host, RunResult } from './host.ts';
import { listProcesses, type ProcessInfo } from './processes.ts';
import type { DaemonName, DaemonState, ReloadResult, ServiceControl } from './service-control.ts';

/**
 * System mode (MAILROOM_ROOT=/ with MAILROOM_RELOAD on): systemd runs the daemons, Mailroom only
 * reloads them and reads their state from systemd.
 *
 * Mailroom runs as the unprivileged `mailroom` user, so a reload goes through `sudo -n` to exactly
 * the commands that deploy/sudoers allows (`systemctl reload <unit>` of four units, nothing else);
 * as root it runs systemctl directly. A reload of named limited to some zones (or a reconfig) uses
 * `rndc`, which needs no root, only read access to BIND's control key (the `bind` group).
 */

/** The path deploy/sudoers names: what `sudo -n` is asked to run. */
export const SYSTEMCTL = '/usr/bin/systemctl';
/** systemctl run directly (as root, or to read states): found on PATH. */
export const SYSTEMCTL_CMD = 'systemctl';
export const SUDO = '/usr/bin/sudo';
export const RNDC = '/usr/sbin/rndc';

interface SystemUnit {
  label: string;
  /** The unit `systemctl reload` is sent to (what deploy/sudoers allows). */
  reloadUnit: string;
  /** The unit whose state is the daemon's: Debian's postfix.service is a wrapper of postfix@-. */
  stateUnit: string;
  /** Debian package that provides it. */
  pkg: string;
  /** Process name (/proc/<pid>/comm) of the daemon's main process, when systemd gives no pid. */
  comm: string;
  /** A word in that process's command line that tells it from another program's `master`. */
  cmdline: string;
}

export const SYSTEM_UNITS: Record<DaemonName, SystemUnit> = {
  postfix: {
    label: 'Postfix',
    reloadUnit: 'postfix.service',
    stateUnit: 'postfix@-.service',
    pkg: 'postfix',
    comm: 'master',
    cmdline: 'postfix',
  },
  dovecot: {
    label: 'Dovecot',
    reloadUnit: 'dovecot.service',
    stateUnit: 'dovecot.service',
    pkg: 'dovecot-core',
    comm: 'dovecot',
    cmdline: 'dovecot',
  },
  rspamd: {
    label: 'Rspamd',
    reloadUnit: 'rspamd.service',
    stateUnit: 'rspamd.service',
    pkg: 'rspamd',
    comm: 'rspamd',
    cmdline: 'rspamd',
  },
  named: {
    label: 'BIND (named)',
    reloadUnit: 'named.service',
    stateUnit: 'named.service',
    pkg: 'bind9',
    comm: 'named',
    cmdline: 'named',
  },
};

const DAEMONS = Object.keys(SYSTEM_UNITS) as DaemonName[];

/** The exact command lines a reload runs (program first), as deploy/sudoers must list them. */
export function reloadCommand(name: DaemonName, sudo: boolean): string[] {
  const unit = SYSTEM_UNITS[name].reloadUnit;
  return sudo ? [SUDO, '-n', SYSTEMCTL, 'reload', unit] : [SYSTEMCTL_CMD, 'reload', unit];
}

export type UnitProperties = Record<string, string>;

/**
 * Parses `systemctl show` output: `Key=Value` lines, one block per unit, blocks separated by an
 * empty line, in the order the units were named.
 */
export function parseSystemctlShow(text: string): UnitProperties[] {
  const blocks: UnitProperties[] = [];
  let current: UnitProperties | null = null;
  for (const line of text.split('\n')) {
    if (line.trim() === '') {
      current = null;
      continue;
    }
    const eq = line.indexOf('=');
    if (eq <= 0) continue;
    if (!current) {
      current = {};
      blocks.push(current);
    }
    current[line.slice(0, eq)] = line.slice(eq + 1);
  }
  return blocks;
}

/**
 * A systemd timestamp as ISO: `@1763841482` (`--timestamp=unix`) or
 * `Sun 2026-11-22 19:58:02 UTC` (`--timestamp=utc`); null when unset or in another zone.
 */
export function parseSystemdTimestamp(value: string | undefined): string | null {
  if (!value || value === 'n/a') return null;
  const unix = /^@(\d+)(?:\.(\d+))?$/.exec(value.trim());
  if (unix) return new Date(Number(unix[1]) * 1000).toISOString();
  const utc = /(\d{4}-\d{2}-\d{2}) (\d{2}:\d{2}:\d{2})(?:\.\d+)? UTC$/.exec(value.trim());
  if (utc) return new Date(`${utc[1]}T${utc[2]}Z`).toISOString();
  return null;
}

/** One daemon's state from its unit's properties. */
export function stateFromUnit(name: DaemonName, p: UnitProperties): DaemonState {
  const u = SYSTEM_UNITS[name];
  const pidValue = Number(p.MainPID ?? '0');
  const pid = Number.isInteger(pidValue) && pidValue > 0 ? pidValue : null;
  const base = { name, pid: null, since: null };
  if (p.LoadState === 'not-found') {
    return {
      ...base,
      state: 'not-installed',
      detail: `${u.label} is not installed (no ${u.stateUnit}). Install the Debian package ${u.pkg}.`,
    };
  }
  if (p.LoadState === 'masked') {
    return {
      ...base,
      state: 'stopped',
      detail: `${u.label} is masked in systemd. Unmask and start it: systemctl unmask ${u.reloadUnit} && systemctl start ${u.reloadUnit}`,
    };
  }
  switch (p.ActiveState ?? '') {
    case 'active':
    case 'reloading':
      return {
        name,
        state: 'running',
        pid,
        since: parseSystemdTimestamp(p.ExecMainStartTimestamp),
        detail: `${u.label} is running under systemd (${u.stateUnit}${pid ? `, pid ${pid}` : ''}).`,
      };
    case 'failed':
      return {
        ...base,
        state: 'failed',
        detail: `${u.label} failed (${p.Result || 'unknown reason'}). Read \`journalctl -u ${u.stateUnit}\`, then: systemctl restart ${u.reloadUnit}`,
      };
    case 'activating':
      return {
        ...base,
        state: 'stopped',
        detail: `${u.label} is starting (${p.SubState || 'activating'}).`,
        pending: 'starting',
      };
    case 'deactivating':
      return {
        ...base,
        state: 'stopped',
        detail: `${u.label} is stopping (${p.SubState || 'deactivating'}).`,
        pending: 'stopping',
      };
    default:
      return {
        ...base,
        state: 'stopped',
        detail: `${u.label} is not running. Start it: systemctl start ${u.reloadUnit}`,
      };
  }
}

const STATE_PROPERTIES = 'Id,LoadState,ActiveState,SubState,Result,MainPID,ExecMainStartTimestamp';

/** Zone names passed to rndc: a domain name, never something rndc could read as an option. */
const ZONE_NAME = /^[A-Za-z0-9_](?:[A-Za-z0-9_.-]{0,252})$/;

export interface SystemServicesOptions {
  /** Runs a program without a shell; never throws (Host.run). */
  run(cmd: string, args: string[]): Promise<RunResult>;
  /** Send systemctl reloads through `sudo -n` (Mailroom is not root). */
  sudo: boolean;
  /** MAILROOM_RELOAD: false leaves the daemons alone (states are still read). Default true. */
  reloads?: boolean;
  listProcesses?: () => Promise<ProcessInfo[]>;
}

const outputOf = (r: RunResult) => (r.stderr.trim() || r.stdout.trim() || `exit ${r.code}`).trim();

export class SystemServiceControl implements ServiceControl {
  private readonly list: () => Promise<ProcessInfo[]>;

  constructor(private readonly opts: SystemServicesOptions) {
    this.list = opts.listProcesses ?? (() => listProcesses());
  }

  async reload(name: DaemonName, opts: { zones?: string[]; reconfig?: boolean } = {}): Promise<ReloadResult> {
    const u = SYSTEM_UNITS[name];
    if (this.opts.reloads === false)
      return {
        ok: true,
        attempted: false,
        output: `Reloads are off (MAILROOM_RELOAD=0): ${u.label} reads the new files at its next reload or restart (systemctl reload ${u.reloadUnit}).`,
      };
    if (name === 'named' && (opts.zones?.length || opts.reconfig))
      return this.rndc(opts.zones ?? [], opts.reconfig === true);

    const shown = await this.opts.run(SYSTEMCTL_CMD, ['show', '-p', 'LoadState,ActiveState', u.stateUnit]);
    const props = parseSystemctlShow(shown.stdout)[0];
    if (shown.code === 0 && props) {
      if (props.LoadState === 'not-found')
        return {
          ok: true,
          attempted: false,
          output: `${u.label} is not installed (Debian package ${u.pkg}); nothing to reload.`,
        };
      if (props.ActiveState !== 'active' && props.ActiveState !== 'reloading')
        return {
          ok: true,
          attempted: false,
          output: `${u.label} is not running (${props.ActiveState ?? 'unknown'}); it reads the new files when started: systemctl start ${u.reloadUnit}`,
        };
    } else if (!findDaemonProcess(await this.list(), u)) {
      // No systemd to ask (a container, say) and no such process: nothing to reload, not a failure.
      return {
        ok: true,
        attempted: false,
        output: `${u.label} is not running, and systemd did not answer (${outputOf(shown)}); it reads the new files when started.`,
      };
    }
    const [cmd, ...args] = reloadCommand(name, this.opts.sudo);
    const r = await this.opts.run(cmd!, args);
    if (r.code === 0)
      return { ok: true, attempted: true, output: `${u.label} reloaded (systemctl reload ${u.reloadUnit}).` };
    const refused = this.opts.sudo && /password is required|not allowed|may not run sudo/i.test(r.stderr);
    return {
      ok: false,
      attempted: true,
      output:
        `${u.label} reload failed: ${outputOf(r)}` +
        (refused
          ? ` (sudo refused: install deploy/sudoers as /etc/sudoers.d/mailroom, see docs/install.md)`
          : ''),
    };
  }

  /** `rndc reconfig` (new or removed zones) and/or `rndc reload <zone>` per changed zone. */
  private async rndc(zones: string[], reconfig: boolean): Promise<ReloadResult> {
    const bad = zones.find((z) => !ZONE_NAME.test(z));
    if (bad !== undefined) return { ok: false, attempted: false, output: `not a zone name: ${bad}` };
    const runs = [...(reconfig ? [['reconfig']] : []), ...zones.map((z) => ['reload', z])];
    const out: string[] = [];
    let ok = true;
    for (const args of runs) {
      const r = await this.opts.run(RNDC, args);
      if (r.code !== 0) ok = false;
      out.push(`rndc ${args.join(' ')}: ${r.code === 0 ? r.stdout.trim() || 'done' : outputOf(r)}`);
    }
    if (!ok)
      out.push('(rndc needs read access to /etc/bind/rndc.key: add the mailroom user to the bind group)');
    return { ok, attempted: true, output: out.join('\n') };
  }

  async states(): Promise<DaemonState[]> {
    const units = DAEMONS.map((d) => SYSTEM_UNITS[d].stateUnit);
    const r = await this.opts.run(SYSTEMCTL_CMD, [
      'show',
      '--timestamp=unix',
      '-p',
      STATE_PROPERTIES,
      ...units,
    ]);
    const blocks = parseSystemctlShow(r.stdout);
    if (r.code !== 0 || blocks.length !== DAEMONS.length) return this.statesFromProcesses(outputOf(r));
    const procs = await this.list();
    return DAEMONS.map((d, i) => {
      const u = SYSTEM_UNITS[d];
      const block = blocks.find((b) => b.Id === u.stateUnit) ?? blocks[i]!;
      const state = stateFromUnit(d, block);
      // Debian's postfix@.service is forking without a pid file: systemd has no main pid for it.
      if (state.state === 'running' && state.pid === null) {
        const p = findDaemonProcess(procs, u);
        if (p) return { ...state, pid: p.pid, detail: state.detail.replace(/\)\.$/, `, pid ${p.pid}).`) };
      }
      return state;
    });
  }

  /** Without systemd (a container, say) the process table is the only truth left. */
  private async statesFromProcesses(why: string): Promise<DaemonState[]> {
    const procs = await this.list();
    return DAEMONS.map((d) => {
      const u = SYSTEM_UNITS[d];
      const p = findDaemonProcess(procs, u);
      return p
        ? {
            name: d,
            state: 'running',
            pid: p.pid,
            since: null,
            detail: `${u.label} is running (pid ${p.pid}), but systemd did not answer: ${why}`,
          }
        : {
            name: d,
            state: 'stopped',
            pid: null,
            since: null,
            detail: `${u.label} is not running, and systemd did not answer (${why}). Start it: systemctl start ${u.reloadUnit}`,
          };
    });
  }

  async close(): Promise<void> {
    /* systemd keeps running the daemons */
  }
}

function findDaemonProcess(procs: ProcessInfo[], u: SystemUnit): ProcessInfo | undefined {
  return procs
    .filter((p) => p.name === u.comm && p.cmdline.includes(u.cmdline))
    .sort((a, b) => a.pid - b.pid)[0];
}

/**
 * The system-mode control for this host: sudo unless Mailroom already runs as root; reloads only
 * when the host's reloads are on (MAILROOM_RELOAD), states from systemd always.
 */
export function systemServiceControl(host: Host): SystemServiceControl {
  return new SystemServiceControl({
    run: (cmd, args) => host.run(cmd, args),
    sudo: process.getuid?.() !== 0,
    reloads: host.reloadEnabled,
  });
}
