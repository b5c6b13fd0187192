import { promises as fs } from 'node:fs';

/** One socket from the kernel's tables (/proc/net/tcp, tcp6, udp, udp6). */
export interface KernelSocket {
  protocol: 'tcp' | 'tcp6' | 'udp' | 'udp6';
  localIp: string;
  localPort: number;
  remoteIp: string;
  remotePort: number;
  /** The kernel's state name (ESTABLISHED, LISTEN, TIME_WAIT, ...). */
  state: string;
  inode: number;
}

const TCP_STATES: Record<string, string> = {
  '01': 'ESTABLISHED',
  '02': 'SYN_SENT',
  '03': 'SYN_RECV',
  '04': 'FIN_WAIT1',
  '05': 'FIN_WAIT2',
  '06': 'TIME_WAIT',
  '07': 'CLOSE',
  '08': 'CLOSE_WAIT',
  '09': 'LAST_ACK',
  '0A': 'LISTEN',
  '0B': 'CLOSING',
};

/** The kernel writes addresses as 32-bit words in host (little-endian) order. */
export function decodeIp(hex: string): string {
  const word = (w: string) =>
    w
      .match(/../g)!
      .reverse()
      .map((b) => parseInt(b, 16));
  if (hex.length === 8) return word(hex).join('.');
  const bytes: number[] = [];
  for (let i = 0; i < 32; i += 8) bytes.push(...word(hex.slice(i, i + 8)));
  // IPv4-mapped: ::ffff:a.b.c.d
  if (bytes.slice(0, 10).every((b) => b === 0) && bytes[10] === 0xff && bytes[11] === 0xff)
    return `::ffff:${bytes.slice(12).join('.')}`;
  const groups: string[] = [];
  for (let i = 0; i < 16; i += 2) groups.push(((bytes[i]! << 8) | bytes[i + 1]!).toString(16));
  // Shorten the longest run of zero groups.
  let best = -1;
  let bestLen = 0;
  for (let i = 0; i < 8;) {
    if (groups[i] !== '0') {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && groups[j] === '0') j++;
    if (j - i > bestLen) {
      best = i;
      bestLen = j - i;
    }
    i = j;
  }
  if (bestLen < 2) return groups.join(':');
  return `${groups.slice(0, best).join(':')}::${groups.slice(best + bestLen).join(':')}`;
}

export function parseSocketTable(text: string, protocol: KernelSocket['protocol']): KernelSocket[] {
  const out: KernelSocket[] = [];
  const udp = protocol.startsWith('udp');
  for (const line of text.split('\n').slice(1)) {
    const f = line.trim().split(/\s+/);
    if (f.length < 10) continue;
    const [lip, lport] = f[1]!.split(':');
    const [rip, rport] = f[2]!.split(':');
    const st = f[3]!;
    out.push({
      protocol,
      localIp: decodeIp(lip!),
      localPort: parseInt(lport!, 16),
      remoteIp: decodeIp(rip!),
      remotePort: parseInt(rport!, 16),
      // An unconnected UDP socket (07) is the UDP form of listening.
      state: udp ? (st === '07' ? 'LISTEN' : st === '01' ? 'ESTABLISHED' : 'UNCONN') : (TCP_STATES[st] ?? st),
      inode: Number(f[9]),
    });
  }
  return out;
}

export async function readSockets(procRoot = '/proc'): Promise<KernelSocket[]> {
  const tables = await Promise.all(
    (['tcp', 'tcp6', 'udp', 'udp6'] as const).map(async (p) =>
      parseSocketTable(await fs.readFile(`${procRoot}/net/${p}`, 'utf8').catch(() => ''), p),
    ),
  );
  return tables.flat();
}

/** Socket inode → owning pid and process name, from every process's open file descriptors. */
export async function socketOwners(procRoot = '/proc'): Promise<Map<number, { pid: number; name: string }>> {
  const owners = new Map<number, { pid: number; name: string }>();
  const entries = await fs.readdir(procRoot).catch(() => [] as string[]);
  await Promise.all(
    entries
      .filter((e) => /^\d+$/.test(e))
      .map(async (e) => {
        const dir = `${procRoot}/${e}/fd`;
        const fds = await fs.readdir(dir).catch(() => [] as string[]);
        let name: string | null = null;
        for (const fd of fds) {
          const link = await fs.readlink(`${dir}/${fd}`).catch(() => '');
          if (!link.startsWith('socket:[')) continue;
          const inode = Number(link.slice(8, -1));
          if (owners.has(inode)) continue;
          name ??= (await fs.readFile(`${procRoot}/${e}/comm`, 'utf8').catch(() => '?')).trim();
          owners.set(inode, { pid: Number(e), name });
        }
      }),
  );
  return owners;
}

/** Brackets an IPv6 address for `addr:port`. */
export const hostPort = (ip: string, port: number) =>
  ip.includes(':') ? `[${ip}]:${port}` : `${ip}:${port}`;
