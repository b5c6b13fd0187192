import { promises as fs } from 'node:fs';

/** Linux's USER_HZ (clock ticks per second in /proc/<pid>/stat) and page size on every platform Debian ships. */
const TICKS = 100;
const PAGE = 4096;

export interface ProcRow {
  pid: number;
  ppid: number;
  name: string;
  user: string;
  /** Percent of one core over the time since the last reading (since start on first sight). */
  cpu: number;
  /** Percent of the machine's memory. */
  memory: number;
  rss: number;
  status: 'running' | 'sleeping' | 'stopped' | 'other';
  startTime: string;
  command: string;
  threads: number;
}

export interface StatFields {
  name: string;
  state: string;
  ppid: number;
  /** utime + stime in ticks. */
  ticks: number;
  /** Start, in ticks after boot. */
  start: number;
  threads: number;
  rssPages: number;
}

/** /proc/<pid>/stat: the name is in parentheses and may hold spaces or parentheses itself. */
export function parseStat(text: string): StatFields | null {
  const open = text.indexOf('(');
  const close = text.lastIndexOf(')');
  if (open < 0 || close < open) return null;
  const f = text
    .slice(close + 2)
    .trim()
    .split(' ');
  // f[0] = state (field 3), f[1] = ppid (4), f[11] = utime (14), f[12] = stime (15),
  // f[17] = num_threads (20), f[19] = starttime (22), f[21] = rss (24).
  return {
    name: text.slice(open + 1, close),
    state: f[0] ?? '?',
    ppid: Number(f[1] ?? 0),
    ticks: Number(f[11] ?? 0) + Number(f[12] ?? 0),
    threads: Number(f[17] ?? 1),
    start: Number(f[19] ?? 0),
    rssPages: Number(f[21] ?? 0),
  };
}

export function statusOf(state: string): ProcRow['status'] {
  switch (state) {
    case 'R':
      return 'running';
    case 'S':
    case 'D':
    case 'I':
      return 'sleeping';
    case 'T':
    case 't':
      return 'stopped';
    default:
      return 'other';
  }
}

async function userNames(): Promise<Map<number, string>> {
  const names = new Map<number, string>();
  const text = await fs.readFile('/etc/passwd', 'utf8').catch(() => '');
  for (const line of text.split('\n')) {
    const f = line.split(':');
    if (f.length > 2 && f[0]) names.set(Number(f[2]), f[0]);
  }
  return names;
}

/**
 * Reads the process table from /proc. Keeps each process's CPU ticks between calls, so the CPU
 * column is the share used since the previous reading (like `top`), not a lifetime average.
 */
export class ProcessTable {
  private last = new Map<number, { ticks: number; at: number; start: number }>();

  constructor(private readonly procRoot = '/proc') {}

  async read(): Promise<ProcRow[]> {
    const root = this.procRoot;
    const [entries, stat, meminfo, users] = await Promise.all([
      fs.readdir(root).catch(() => [] as string[]),
      fs.readFile(`${root}/stat`, 'utf8').catch(() => ''),
      fs.readFile(`${root}/meminfo`, 'utf8').catch(() => ''),
      userNames(),
    ]);
    const btime = Number(/^btime (\d+)/m.exec(stat)?.[1] ?? 0);
    const memTotal = Number(/^MemTotal:\s+(\d+)/m.exec(meminfo)?.[1] ?? 0) * 1024;
    const uptime = Number((await fs.readFile(`${root}/uptime`, 'utf8').catch(() => '0')).split(' ')[0] ?? 0);
    const now = Date.now();
    const seen = new Map<number, { ticks: number; at: number; start: number }>();
    const rows: ProcRow[] = [];
    await Promise.all(
      entries
        .filter((e) => /^\d+$/.test(e))
        .map(async (e) => {
          const pid = Number(e);
          try {
            const [statText, status, cmdline] = await Promise.all([
              fs.readFile(`${root}/${e}/stat`, 'utf8'),
              fs.readFile(`${root}/${e}/status`, 'utf8'),
              fs.readFile(`${root}/${e}/cmdline`, 'utf8'),
            ]);
            const s = parseStat(statText);
            if (!s) return;
            const uid = Number(/^Uid:\s+(\d+)/m.exec(status)?.[1] ?? -1);
            const prev = this.last.get(pid);
            let cpu: number;
            if (prev && prev.start === s.start && now > prev.at) {
              cpu = ((s.ticks - prev.ticks) / TICKS / ((now - prev.at) / 1000)) * 100;
            } else {
              const age = uptime - s.start / TICKS;
              cpu = age > 0 ? (s.ticks / TICKS / age) * 100 : 0;
            }
            seen.set(pid, { ticks: s.ticks, at: now, start: s.start });
            const rss = s.rssPages * PAGE;
            const command = cmdline.replace(/\0+$/, '').replace(/\0/g, ' ') || `[${s.name}]`;
            rows.push({
              pid,
              ppid: s.ppid,
              name: s.name,
              user: users.get(uid) ?? String(uid),
              cpu: Math.round(Math.max(0, cpu) * 10) / 10,
              memory: memTotal ? Math.round((rss / memTotal) * 1000) / 10 : 0,
              rss,
              status: statusOf(s.state),
              startTime: new Date((btime + s.start / TICKS) * 1000).toISOString(),
              command,
              threads: s.threads,
            });
          } catch {
            /* it ended while we looked */
          }
        }),
    );
    this.last = seen;
    return rows.sort((a, b) => a.pid - b.pid);
  }
}
