import type { SystemService } from '@mailroom/contract/system-metrics';
import type { AppDeps } from '../../../app-deps.ts';
import { observeDaemons } from '../../../host/local-services.ts';
import type { ProcRow, ProcessTable } from '../../../host/process-table.ts';
import type { DaemonName, DaemonState } from '../../../host/service-control.ts';
import { SharedReading } from '../../../host/shared-reading.ts';
import {
  SUDO,
  SYSTEMCTL,
  SYSTEMCTL_CMD,
  parseSystemctlShow,
  parseSystemdTimestamp,
} from '../../../host/system-services.ts';

type Action = 'start' | 'stop' | 'restart';

interface Known {
  id: string;
  name: string;
  description: string;
  daemon?: DaemonName;
  unit: string;
  /** Process names (comm) that are this service when systemd gives no pid. */
  comm: string[];
  port: (deps: AppDeps) => number | null;
  /** What stops while it is stopped or restarting (the confirmation says it). */
  impact: string;
}

const pgPort = (deps: AppDeps) => {
  const url = deps.config.databaseUrl;
  if (!url) return 5432;
  try {
    return Number(new URL(url).port || 5432);
  } catch {
    return 5432;
  }
};

const KNOWN: Known[] = [
  {
    id: 'postfix',
    name: 'Postfix',
    description: 'Mail transfer agent (SMTP)',
    daemon: 'postfix',
    unit: 'postfix.service',
    comm: ['master'],
    port: (d) => d.config.ports.smtp,
    impact: 'Mail delivery pauses: no mail is received or sent while Postfix is down.',
  },
  {
    id: 'dovecot',
    name: 'Dovecot',
    description: 'IMAP server and mail delivery (LMTP)',
    daemon: 'dovecot',
    unit: 'dovecot.service',
    comm: ['dovecot'],
    port: (d) => d.config.ports.imap,
    impact: 'Mailbox access pauses: IMAP clients are disconnected and incoming mail waits in the queue.',
  },
  {
    id: 'named',
    name: 'BIND',
    description: 'Authoritative DNS server (named)',
    daemon: 'named',
    unit: 'named.service',
    comm: ['named'],
    port: (d) => d.config.ports.dns,
    impact: 'DNS answers for your zones stop: mail to your domains may be delayed while BIND is down.',
  },
  {
    id: 'rspamd',
    name: 'Rspamd',
    description: 'Spam filter and DKIM signing (milter)',
    daemon: 'rspamd',
    unit: 'rspamd.service',
    comm: ['rspamd'],
    port: () => null,
    impact: 'Spam filtering and DKIM signing pause while Rspamd is down.',
  },
  {
    id: 'apache2',
    name: 'Apache',
    description: 'Web server (httpd 2.4)',
    unit: 'apache2.service',
    comm: ['apache2'],
    port: () => 80,
    impact: 'The websites this server hosts stop answering.',
  },
  {
    id: 'postgresql',
    name: 'PostgreSQL',
    description: 'Database server',
    unit: 'postgresql.service',
    comm: ['postgres'],
    port: pgPort,
    impact: 'The database stops: the console and mail lookups fail until it is back.',
  },
];

export const SERVICE_IDS = [...KNOWN.map((k) => k.id), 'mailroom'];
/** The systemd units Start / Stop / Restart act on (deploy/sudoers lists each with each verb). */
export const CONTROLLED_UNITS = KNOWN.map((k) => k.unit);

/** The exact command line of a start/stop/restart in system mode (through `sudo -n` unless root). */
export function controlCommand(unit: string, action: Action, sudo: boolean): string[] {
  return sudo ? [SUDO, '-n', SYSTEMCTL, action, unit] : [SYSTEMCTL_CMD, action, unit];
}

const systemMode = (deps: AppDeps) => deps.config.hostRoot === '/';

/** Resident memory (bytes) and CPU (percent) of a process and all its descendants. */
function treeUsage(rows: ProcRow[], pid: number | null): { memory: number; cpu: number } {
  if (!pid) return { memory: 0, cpu: 0 };
  const children = new Map<number, number[]>();
  for (const r of rows) children.set(r.ppid, [...(children.get(r.ppid) ?? []), r.pid]);
  const byPid = new Map(rows.map((r) => [r.pid, r]));
  let memory = 0;
  let cpu = 0;
  const todo = [pid];
  const seen = new Set<number>();
  while (todo.length) {
    const p = todo.pop()!;
    if (seen.has(p)) continue;
    seen.add(p);
    const r = byPid.get(p);
    if (r) {
      memory += r.rss;
      cpu += r.cpu;
    }
    todo.push(...(children.get(p) ?? []));
  }
  return { memory, cpu: Math.round(cpu * 10) / 10 };
}

const statusOf = (s: DaemonState['state']): SystemService['status'] =>
  s === 'running' ? 'running' : s === 'failed' ? 'failed' : 'stopped';

export class ServicesService {
  /** The process table, read at most once a second for every caller (issue 22 #21). */
  private readonly rows: SharedReading<ProcRow[]>;

  constructor(
    private readonly deps: AppDeps,
    processes: ProcessTable,
  ) {
    this.rows = new SharedReading(() => processes.read());
  }

  async list(): Promise<SystemService[]> {
    const deps = this.deps;
    const [rows, daemons, units] = await Promise.all([
      this.rows.get(),
      deps.services ? deps.services.states() : observeDaemons(deps.host, deps.config),
      systemMode(deps) ? this.unitStates(['apache2.service', 'postgresql.service']) : Promise.resolve(null),
    ]);
    const out: SystemService[] = [];
    const now = Date.now();
    for (const k of KNOWN) {
      let status: SystemService['status'];
      let pid: number | null;
      let since: string | null;
      let note: string | undefined;
      let pending: DaemonState['pending'];
      if (k.daemon) {
        const d = daemons.find((x) => x.name === k.daemon);
        status = d ? statusOf(d.state) : 'stopped';
        pid = d?.pid ?? null;
        since = d?.since ?? null;
        note = d?.detail;
        pending = d?.state === 'running' ? undefined : d?.pending;
        if (d && (d.state === 'not-installed' || d.state === 'unmanaged')) note = d.detail;
      } else if (units?.has(k.unit)) {
        const u = units.get(k.unit);
        const active = u?.ActiveState;
        status =
          active === 'active' || active === 'reloading'
            ? 'running'
            : active === 'failed'
              ? 'failed'
              : 'stopped';
        const mp = Number(u?.MainPID ?? 0);
        pid = mp > 0 ? mp : null;
        since = parseSystemdTimestamp(u?.ExecMainStartTimestamp);
        if (u?.LoadState === 'not-found') note = `${k.name} is not installed (no ${k.unit}).`;
        if (status === 'running' && !pid) pid = oldest(rows, k.comm)?.pid ?? null;
      } else {
        // Local mode: Mailroom neither runs nor controls these; report what the process table shows.
        const p = oldest(rows, k.comm);
        status = p ? 'running' : 'stopped';
        pid = p?.pid ?? null;
        since = p?.startTime ?? null;
        note = systemMode(deps)
          ? `systemd did not answer; ${p ? `found running (pid ${p.pid})` : 'no such process is running'}.`
          : `Not run by Mailroom in local mode${p ? ' (found running on this machine)' : ''}; start it with systemd or by hand.`;
      }
      const use = treeUsage(rows, status === 'running' ? pid : null);
      const daemonState = k.daemon ? daemons.find((x) => x.name === k.daemon)?.state : undefined;
      const controllable = systemMode(deps)
        ? true
        : Boolean(
            k.daemon &&
            deps.services?.control &&
            daemonState !== undefined &&
            daemonState !== 'not-installed' &&
            daemonState !== 'unmanaged',
          );
      out.push({
        id: k.id,
        name: k.name,
        status,
        uptime: status === 'running' && since ? Math.max(0, Math.floor((now - Date.parse(since)) / 1000)) : 0,
        memoryUsage: use.memory,
        cpuUsage: use.cpu,
        lastRestart: since,
        description: k.description,
        port: k.port(deps),
        pid: status === 'running' ? pid : null,
        ...(note ? { note } : {}),
        ...(pending ? { pending } : {}),
        controllable,
        impact: k.impact,
      });
    }
    const self = rows.find((r) => r.pid === process.pid);
    out.push({
      id: 'mailroom',
      name: 'Mailroom',
      status: 'running',
      uptime: Math.floor(process.uptime()),
      memoryUsage: self?.rss ?? process.memoryUsage().rss,
      cpuUsage: self?.cpu ?? 0,
      lastRestart: new Date(now - process.uptime() * 1000).toISOString(),
      description: 'This console and its API',
      port: deps.config.port,
      pid: process.pid,
      note: 'Mailroom does not stop or restart itself from its own console (systemctl restart mailroom).',
      controllable: false,
      impact: null,
    });
    return out;
  }

  async counts(): Promise<{ running: number; total: number }> {
    const list = await this.list();
    return { running: list.filter((s) => s.status === 'running').length, total: list.length };
  }

  async act(id: string, action: Action): Promise<{ ok: boolean; message: string; refused?: boolean }> {
    const k = KNOWN.find((x) => x.id === id);
    if (id === 'mailroom')
      return {
        ok: false,
        refused: true,
        message:
          'Mailroom does not stop or restart itself from its own console: run systemctl restart mailroom on the server.',
      };
    if (!k) return { ok: false, refused: true, message: `No service ${id}.` };
    if (systemMode(this.deps)) {
      const sudo = process.getuid?.() !== 0;
      const [cmd, ...args] = controlCommand(k.unit, action, sudo);
      const r = await this.deps.host.run(cmd!, args, { timeoutMs: 60_000 });
      if (r.code === 0) return { ok: true, message: `${k.name}: systemctl ${action} ${k.unit} done.` };
      const out = (r.stderr.trim() || r.stdout.trim() || `exit ${r.code}`).slice(0, 500);
      return {
        ok: false,
        message:
          `${k.name}: systemctl ${action} ${k.unit} failed: ${out}` +
          (sudo && /password is required|not allowed/i.test(out)
            ? ' (sudo refused: install deploy/sudoers as /etc/sudoers.d/mailroom, see docs/install.md)'
            : ''),
      };
    }
    if (!k.daemon)
      return {
        ok: false,
        refused: true,
        message: `${k.name} is not run by Mailroom in local mode; start or stop it with systemd or by hand.`,
      };
    const control = this.deps.services?.control?.bind(this.deps.services);
    if (!control)
      return {
        ok: false,
        refused: true,
        message: `Mailroom was started without its daemon supervisor, so it cannot ${action} ${k.name}.`,
      };
    const r = await control(k.daemon, action);
    // Not attempted: the supervisor does not run it (not installed, not root, MAILROOM_RUN_DAEMONS=0).
    return { ok: r.ok, message: `${k.name}: ${r.output}`, ...(r.ok || r.attempted ? {} : { refused: true }) };
  }

  private async unitStates(units: string[]): Promise<Map<string, Record<string, string>>> {
    const r = await this.deps.host.run(SYSTEMCTL_CMD, [
      'show',
      '--timestamp=unix',
      '-p',
      'Id,LoadState,ActiveState,MainPID,ExecMainStartTimestamp',
      ...units,
    ]);
    const map = new Map<string, Record<string, string>>();
    if (r.code !== 0) return map;
    for (const b of parseSystemctlShow(r.stdout)) if (b.Id) map.set(b.Id, b);
    return map;
  }
}

function oldest(rows: ProcRow[], comm: string[]): ProcRow | undefined {
  return rows.filter((r) => comm.includes(r.name)).sort((a, b) => a.pid - b.pid)[0];
}
