import { readdirSync, readFileSync, statfsSync } from 'node:fs';

/**
 * The machine-wide figures the metrics collector reads every few seconds, straight from /proc
 * (a handful of small reads: far cheaper than spawning programs or walking every process).
 */

export interface CpuTimes {
  idle: number;
  total: number;
}

/** Aggregate CPU jiffies from the first line of /proc/stat. */
export function parseCpuTimes(stat: string): CpuTimes {
  const line = stat.slice(0, stat.indexOf('\n'));
  const v = line.trim().split(/\s+/).slice(1).map(Number);
  // user nice system idle iowait irq softirq steal (guest is already inside user)
  const idle = (v[3] ?? 0) + (v[4] ?? 0);
  const total = v.slice(0, 8).reduce((a, b) => a + (Number.isFinite(b) ? b : 0), 0);
  return { idle, total };
}

/** Percent busy between two readings. */
export function cpuPercent(prev: CpuTimes, now: CpuTimes): number {
  const total = now.total - prev.total;
  if (total <= 0) return 0;
  return Math.min(100, Math.max(0, (100 * (total - (now.idle - prev.idle))) / total));
}

export interface MemInfo {
  total: number;
  available: number;
}

export function parseMeminfo(text: string): MemInfo {
  const kb = (key: string) => {
    const m = new RegExp(`^${key}:\\s+(\\d+)`, 'm').exec(text);
    return m ? Number(m[1]) * 1024 : 0;
  };
  const total = kb('MemTotal');
  const available = kb('MemAvailable') || kb('MemFree') + kb('Buffers') + kb('Cached');
  return { total, available };
}

export interface NetTotals {
  rx: number;
  tx: number;
}

/** Bytes received and sent over every interface but loopback, from /proc/net/dev. */
export function parseNetDev(text: string): NetTotals {
  let rx = 0;
  let tx = 0;
  for (const line of text.split('\n').slice(2)) {
    const colon = line.indexOf(':');
    if (colon < 0) continue;
    const name = line.slice(0, colon).trim();
    if (name === 'lo') continue;
    const f = line
      .slice(colon + 1)
      .trim()
      .split(/\s+/)
      .map(Number);
    rx += f[0] ?? 0;
    tx += f[8] ?? 0;
  }
  return { rx, tx };
}

/**
 * Established TCP connections (IPv4 and IPv6) from /proc/net/snmp's `Tcp: ... CurrEstab`: a counter
 * the kernel keeps, read in microseconds, where walking /proc/net/tcp costs milliseconds.
 */
export function parseCurrEstab(snmp: string): number | null {
  const lines = snmp.split('\n').filter((l) => l.startsWith('Tcp:'));
  if (lines.length < 2) return null;
  const keys = lines[0]!.split(/\s+/);
  const values = lines[1]!.split(/\s+/);
  const i = keys.indexOf('CurrEstab');
  return i > 0 ? Number(values[i]) : null;
}

/** Established TCP connections in a /proc/net/tcp{,6} table (state 01). */
export function countEstablished(table: string): number {
  let n = 0;
  let i = table.indexOf('\n');
  while (i >= 0 && i < table.length - 1) {
    // Each row: "  sl: local rem st ..."; the state is the 4th field.
    const end = table.indexOf('\n', i + 1);
    const row = table.slice(i + 1, end < 0 ? undefined : end);
    const f = row.trim().split(/\s+/, 4);
    if (f[3] === '01') n++;
    i = end;
  }
  return n;
}

/** /proc files live in memory: a synchronous read costs microseconds, less than a thread-pool hop. */
const read = (file: string) => {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return '';
  }
};
const attempt = <T>(f: () => T, fallback: T): T => {
  try {
    return f();
  } catch {
    return fallback;
  }
};

export interface HostSample {
  cpu: CpuTimes;
  mem: MemInfo;
  net: NetTotals;
  established: number;
  processes: number;
  /**
   * Bytes of the file system holding `diskPath`: used, available to ordinary users (the blocks
   * reserved for root excluded, as df shows them) and total.
   */
  disk: { used: number; available: number; total: number };
}

/**
 * Disk usage in percent as df shows it: used / (used + available). The blocks the file system
 * keeps for root count as neither, so 100 % means full for every user but root (used / total
 * would read 10 % where df says 27 %, and a disk alert would fire only once it is full).
 */
export function diskPercent(d: { used: number; available: number }): number {
  const base = d.used + d.available;
  return base > 0 ? (100 * d.used) / base : 0;
}

/** One reading of the machine. `procRoot` is /proc (tests may point elsewhere). */
export function readHostSample(diskPath: string, procRoot = '/proc'): Promise<HostSample> {
  return Promise.resolve(readHostSampleSync(diskPath, procRoot));
}

/** Memory and the data folder's disk only (the dashboard status): read as readHostSample reads them. */
export function readMemoryAndDisk(
  diskPath: string,
  procRoot = '/proc',
): Promise<Pick<HostSample, 'mem' | 'disk'>> {
  const disk = attempt(() => statfsSync(diskPath), null);
  return Promise.resolve({
    mem: parseMeminfo(read(`${procRoot}/meminfo`)),
    disk: disk
      ? {
          total: disk.blocks * disk.bsize,
          used: (disk.blocks - disk.bfree) * disk.bsize,
          available: disk.bavail * disk.bsize,
        }
      : { used: 0, available: 0, total: 0 },
  });
}

export function readHostSampleSync(diskPath: string, procRoot = '/proc'): HostSample {
  const stat = read(`${procRoot}/stat`);
  const meminfo = read(`${procRoot}/meminfo`);
  const netdev = read(`${procRoot}/net/dev`);
  const entries = attempt(() => readdirSync(procRoot), [] as string[]);
  const disk = attempt(() => statfsSync(diskPath), null);
  let processes = 0;
  for (const e of entries) {
    const c = e.charCodeAt(0);
    if (c >= 48 && c <= 57) processes++;
  }
  return {
    cpu: parseCpuTimes(stat),
    mem: parseMeminfo(meminfo),
    net: parseNetDev(netdev),
    // The Network Connections list's "established" rows, counted the same way: CurrEstab would
    // add CLOSE_WAIT sockets, so the two screens would disagree.
    established:
      countEstablished(read(`${procRoot}/net/tcp`)) + countEstablished(read(`${procRoot}/net/tcp6`)),
    processes,
    disk: disk
      ? {
          total: disk.blocks * disk.bsize,
          used: (disk.blocks - disk.bfree) * disk.bsize,
          available: disk.bavail * disk.bsize,
        }
      : { used: 0, available: 0, total: 0 },
  };
}
