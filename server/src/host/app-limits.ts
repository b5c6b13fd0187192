import { promises as fs, existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * Memory Limit and CPU Limit of web application processes (issue 20), and the cap of builds.
 *
 * Which mechanism, in this order (the first that works here):
 * 1. system mode with systemd as PID 1: each instance runs in its own transient unit
 *    (`systemd-run --scope --unit mailroom-app-<name>-<n> -p MemoryMax= -p CPUQuota=`), still a
 *    child of Mailroom (the supervisor's restart with back-off is unchanged);
 * 2. cgroup v2 whose memory and cpu controllers Mailroom may use: a child cgroup under Mailroom's
 *    own (`memory.max`, `cpu.max`), the process moved into it right after it is started;
 * 3. cgroup v1 (a host that still mounts the memory and cpu hierarchies, writable): the same child
 *    under Mailroom's own cgroup of each hierarchy (`memory.limit_in_bytes` and, when swap is
 *    accounted, `memory.memsw.limit_in_bytes`; `cpu.cfs_quota_us` over a 100 ms period);
 * 4. none: the application's panel says "limit not enforced: <reason>".
 *
 * A process past its memory limit is killed by the kernel inside its own cgroup (its OOM kill
 * counter: memory.events `oom_kill` in v2, memory.oom_control `oom_kill` in v1); Mailroom and the
 * mail daemons are outside that cgroup and are not touched.
 */

export type LimitMechanism = 'systemd' | 'cgroup2' | 'cgroup1' | 'none';

export interface LimitSupport {
  mechanism: LimitMechanism;
  /** Why no mechanism is usable (mechanism 'none'), plainly. */
  reason: string;
}

export interface Limits {
  memoryBytes: number | null;
  /** CPU time per 100 ms period, µs (e.g. 500m → 50000); null: no CPU limit. */
  cpuQuotaUs: number | null;
}

export const CPU_PERIOD_US = 100_000;

/** "512Mi" → bytes (Ki/Mi/Gi or plain bytes); '' → null. */
export function parseMemoryLimit(v: string): number | null {
  const m = /^([1-9][0-9]*)(Ki|Mi|Gi)?$/.exec(v.trim());
  if (!m) return null;
  const unit = m[2] === 'Gi' ? 1024 ** 3 : m[2] === 'Mi' ? 1024 ** 2 : m[2] === 'Ki' ? 1024 : 1;
  return Number(m[1]) * unit;
}

/** "500m" (millicores) or "1.5" (CPUs) → µs per 100 ms period; '' → null. */
export function parseCpuLimit(v: string): number | null {
  const t = v.trim();
  if (!t) return null;
  const cpus = t.endsWith('m') ? Number(t.slice(0, -1)) / 1000 : Number(t);
  if (!Number.isFinite(cpus) || cpus <= 0) return null;
  return Math.max(1000, Math.round(cpus * CPU_PERIOD_US));
}

/**
 * Builds: at most half the CPUs (at least half of one, so one build never takes the whole machine
 * from Postfix and Dovecot) and BUILD_MEMORY_BYTES of memory, besides nice 10.
 */
export const BUILD_MEMORY_BYTES = 2 * 1024 ** 3;
export function buildLimits(cpus = os.availableParallelism()): Limits {
  return {
    memoryBytes: BUILD_MEMORY_BYTES,
    cpuQuotaUs: Math.max(CPU_PERIOD_US / 2, (cpus / 2) * CPU_PERIOD_US),
  };
}

const read = (p: string) => fs.readFile(p, 'utf8').catch(() => null);

/** The lines of /proc/self/cgroup: hierarchy id → controllers → path. */
async function ownCgroups(): Promise<{ v2: string | null; v1: Map<string, string> }> {
  const text = (await read('/proc/self/cgroup')) ?? '';
  let v2: string | null = null;
  const v1 = new Map<string, string>();
  for (const line of text.split('\n')) {
    const [id, ctl, p] = line.split(':');
    if (p === undefined) continue;
    if (id === '0' && ctl === '') v2 = p;
    else for (const c of ctl!.split(',')) v1.set(c, p);
  }
  return { v2, v1 };
}

/** Where the cgroup2 hierarchy is mounted (/sys/fs/cgroup, or /sys/fs/cgroup/unified on a hybrid host). */
async function cgroup2Mount(): Promise<string | null> {
  const mounts = (await read('/proc/self/mounts')) ?? '';
  const m = mounts.split('\n').find((l) => l.split(' ')[2] === 'cgroup2');
  return m ? m.split(' ')[1]! : null;
}

async function v1Mount(controller: string): Promise<string | null> {
  const mounts = (await read('/proc/self/mounts')) ?? '';
  const m = mounts
    .split('\n')
    .map((l) => l.split(' '))
    .find((f) => f[2] === 'cgroup' && (f[3] ?? '').split(',').includes(controller));
  return m ? m[1]! : null;
}

/** Creating and removing a child proves the place is writable. */
async function canMakeChild(dir: string): Promise<string | null> {
  const probe = path.join(dir, `mailroom-probe-${process.pid}`);
  try {
    await fs.mkdir(probe);
    await fs.rmdir(probe);
    return null;
  } catch (err) {
    return `${dir} is not writable (${(err as NodeJS.ErrnoException).code ?? String(err)})`;
  }
}

interface Backend {
  mechanism: 'cgroup2' | 'cgroup1';
  /** The folders the instance's cgroup is made in (v2: one; v1: memory and cpu). */
  parents: { memory: string; cpu: string };
}

let detected: Promise<{ support: LimitSupport; backend: Backend | null }> | null = null;

/** What this host allows (probed once per process; `systemMode`: Mailroom runs the real /). */
export function limitSupport(systemMode: boolean): Promise<LimitSupport> {
  return detect(systemMode).then((d) => d.support);
}

function detect(systemMode: boolean) {
  detected ??= (async () => {
    const reasons: string[] = [];
    if (typeof process.getuid === 'function' && process.getuid() !== 0)
      return {
        support: {
          mechanism: 'none' as const,
          reason: 'Mailroom is not running as root (cgroups need root)',
        },
        backend: null,
      };
    if (systemMode && existsSync('/run/systemd/system'))
      return { support: { mechanism: 'systemd' as const, reason: '' }, backend: null };
    if (systemMode) reasons.push('systemd is not PID 1 here');
    const own = await ownCgroups();
    const mount2 = await cgroup2Mount();
    if (mount2 && own.v2 !== null) {
      const dir = path.join(mount2, own.v2);
      const ctl = ((await read(path.join(dir, 'cgroup.controllers'))) ?? '').trim().split(/\s+/);
      if (!ctl.includes('memory') || !ctl.includes('cpu'))
        reasons.push(`cgroup v2 (${mount2}) offers no memory/cpu controller to Mailroom's cgroup`);
      else {
        const sub = path.join(dir, 'mailroom-apps');
        const err =
          (await fs.mkdir(sub, { recursive: true }).then(
            () => null,
            (e: NodeJS.ErrnoException) => `${sub}: ${e.code}`,
          )) ??
          (await fs.writeFile(path.join(dir, 'cgroup.subtree_control'), '+memory +cpu').then(
            () => null,
            (e: NodeJS.ErrnoException) =>
              `cannot enable memory/cpu for children of ${dir} (${e.code}: Mailroom's cgroup holds processes)`,
          )) ??
          (await fs.writeFile(path.join(sub, 'cgroup.subtree_control'), '+memory +cpu').then(
            () => null,
            (e: NodeJS.ErrnoException) => `${sub}/cgroup.subtree_control: ${e.code}`,
          ));
        if (!err)
          return {
            support: { mechanism: 'cgroup2' as const, reason: '' },
            backend: { mechanism: 'cgroup2' as const, parents: { memory: sub, cpu: sub } },
          };
        reasons.push(`cgroup v2: ${err}`);
      }
    } else reasons.push('no cgroup v2 hierarchy');
    const mem = await v1Mount('memory');
    const cpu = await v1Mount('cpu');
    if (mem && cpu && own.v1.has('memory') && own.v1.has('cpu')) {
      const parents = {
        memory: path.join(mem, own.v1.get('memory')!),
        cpu: path.join(cpu, own.v1.get('cpu')!),
      };
      const err = (await canMakeChild(parents.memory)) ?? (await canMakeChild(parents.cpu));
      if (!err)
        return {
          support: { mechanism: 'cgroup1' as const, reason: '' },
          backend: { mechanism: 'cgroup1' as const, parents },
        };
      reasons.push(`cgroup v1: ${err}`);
    } else reasons.push('no cgroup v1 memory and cpu hierarchies');
    return { support: { mechanism: 'none' as const, reason: reasons.join('; ') }, backend: null };
  })();
  return detected;
}

/** What is set, in one line (for the panel), e.g. "memory 512 MiB, CPU 50% of one CPU (memory.max, cpu.max)". */
export function describeLimits(mechanism: LimitMechanism, l: Limits): string {
  const mib = l.memoryBytes === null ? null : l.memoryBytes / 1024 ** 2;
  const mem =
    mib === null
      ? 'no memory limit'
      : `memory ${Number.isInteger(mib) ? `${mib} MiB` : `${l.memoryBytes} bytes`}`;
  const cpu =
    l.cpuQuotaUs === null
      ? 'no CPU limit'
      : `CPU ${Math.round((l.cpuQuotaUs / CPU_PERIOD_US) * 1000) / 10}% of one CPU`;
  const how =
    mechanism === 'systemd'
      ? 'MemoryMax, CPUQuota'
      : mechanism === 'cgroup2'
        ? 'memory.max, cpu.max'
        : 'memory.limit_in_bytes, cpu.cfs_quota_us';
  return `${mem}, ${cpu} (${how})`;
}

/** A cgroup (or pair, in v1) one process tree is confined to. */
export class LimitGroup {
  private constructor(
    readonly mechanism: 'cgroup2' | 'cgroup1',
    readonly dirs: { memory: string; cpu: string },
  ) {}

  /** Makes (or reuses) the cgroup `name` with these limits; null when no cgroup mechanism is usable. */
  static async open(name: string, limits: Limits, systemMode = false): Promise<LimitGroup | null> {
    const d = await detect(systemMode);
    if (!d.backend) return null;
    const b = d.backend;
    const dirs = { memory: path.join(b.parents.memory, name), cpu: path.join(b.parents.cpu, name) };
    await fs.mkdir(dirs.memory, { recursive: true });
    await fs.mkdir(dirs.cpu, { recursive: true });
    const g = new LimitGroup(b.mechanism, dirs);
    await g.set(limits);
    return g;
  }

  private async set(l: Limits): Promise<void> {
    const w = (dir: string, file: string, v: string) => fs.writeFile(path.join(dir, file), v);
    if (this.mechanism === 'cgroup2') {
      await w(this.dirs.memory, 'memory.max', l.memoryBytes === null ? 'max' : String(l.memoryBytes));
      // No swap beyond the limit: past it the process is killed, not slowed to a crawl.
      await w(this.dirs.memory, 'memory.swap.max', '0').catch(() => undefined);
      await w(this.dirs.cpu, 'cpu.max', `${l.cpuQuotaUs ?? 'max'} ${CPU_PERIOD_US}`);
      return;
    }
    const mem = l.memoryBytes === null ? '-1' : String(l.memoryBytes);
    // memsw (memory + swap) must stay ≥ the memory limit: raise/lower in the order the kernel accepts.
    const memsw = existsSync(path.join(this.dirs.memory, 'memory.memsw.limit_in_bytes'));
    if (memsw) await w(this.dirs.memory, 'memory.memsw.limit_in_bytes', '-1').catch(() => undefined);
    await w(this.dirs.memory, 'memory.limit_in_bytes', mem);
    if (memsw) await w(this.dirs.memory, 'memory.memsw.limit_in_bytes', mem).catch(() => undefined);
    await w(this.dirs.cpu, 'cpu.cfs_period_us', String(CPU_PERIOD_US));
    await w(this.dirs.cpu, 'cpu.cfs_quota_us', l.cpuQuotaUs === null ? '-1' : String(l.cpuQuotaUs));
  }

  /** Moves a process into the group (its children follow it). */
  async add(pid: number): Promise<void> {
    await fs.writeFile(path.join(this.dirs.memory, 'cgroup.procs'), String(pid));
    if (this.dirs.cpu !== this.dirs.memory)
      await fs.writeFile(path.join(this.dirs.cpu, 'cgroup.procs'), String(pid));
  }

  /** Processes killed by the kernel for passing the memory limit inside this group. */
  async oomKills(): Promise<number> {
    const file = this.mechanism === 'cgroup2' ? 'memory.events' : 'memory.oom_control';
    const text = (await read(path.join(this.dirs.memory, file))) ?? '';
    const m = /^oom_kill (\d+)$/m.exec(text);
    return m ? Number(m[1]) : 0;
  }

  /** Removes the group once empty (processes gone); a group still in use stays. */
  async remove(): Promise<void> {
    for (const d of new Set([this.dirs.memory, this.dirs.cpu])) await fs.rmdir(d).catch(() => undefined);
  }
}

/**
 * systemd mode: the argument prefix that runs a command in its own transient scope unit with
 * MemoryMax and CPUQuota (as `runAs`; the scope stays a child of Mailroom, same pid).
 */
export function systemdScopePrefix(
  unit: string,
  limits: Limits,
  runAs: { uid: number; gid: number } | null,
): string[] {
  const props: string[] = [];
  if (limits.memoryBytes !== null)
    props.push('-p', `MemoryMax=${limits.memoryBytes}`, '-p', 'MemorySwapMax=0');
  if (limits.cpuQuotaUs !== null)
    props.push('-p', `CPUQuota=${Math.round((limits.cpuQuotaUs / CPU_PERIOD_US) * 100)}%`);
  const ids = runAs ? [`--uid=${runAs.uid}`, `--gid=${runAs.gid}`] : [];
  return ['systemd-run', '--scope', '--quiet', '--collect', `--unit=${unit}`, ...ids, ...props, '--'];
}

/** Resident memory (VmRSS) of a process, bytes; null when it is gone. */
export async function processMemoryBytes(pid: number): Promise<number | null> {
  const text = await read(`/proc/${pid}/status`);
  const m = text ? /^VmRSS:\s+(\d+) kB$/m.exec(text) : null;
  return m ? Number(m[1]) * 1024 : null;
}
