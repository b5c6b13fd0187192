import type { SystemConnection } from '@mailroom/contract/system-live';
import { fieldError } from '../../../http/errors.ts';
import type { Host } from '../../../host/host.ts';
import { hostPort, type KernelSocket, readSockets, socketOwners } from '../../../host/sockets.ts';

const stateOf = (s: KernelSocket): SystemConnection['state'] =>
  s.state === 'ESTABLISHED'
    ? 'established'
    : s.state === 'LISTEN'
      ? 'listening'
      : s.state === 'TIME_WAIT'
        ? 'time-wait'
        : 'other';

/** A connection's id: protocol, local and remote address, enough to find it again and to close it. */
const idOf = (s: KernelSocket) =>
  `${s.protocol}|${hostPort(s.localIp, s.localPort)}|${hostPort(s.remoteIp, s.remotePort)}`;

export async function listConnections(): Promise<SystemConnection[]> {
  const [sockets, owners] = await Promise.all([readSockets(), socketOwners()]);
  const now = new Date().toISOString();
  return sockets
    .filter((s) => s.state !== 'UNCONN')
    .map((s) => {
      const owner = owners.get(s.inode);
      return {
        id: idOf(s),
        protocol: s.protocol,
        localAddress: hostPort(s.localIp, s.localPort),
        remoteAddress: hostPort(s.remoteIp, s.remotePort),
        state: stateOf(s),
        kernelState: s.state,
        // TIME_WAIT sockets belong to no process any more.
        process: owner?.name ?? (s.inode === 0 ? '(kernel)' : '?'),
        pid: owner?.pid ?? null,
        timestamp: now,
      };
    });
}

const ADDR = /^(?:\[([0-9a-fA-F:.]+)\]|(\d{1,3}(?:\.\d{1,3}){3})):(\d{1,5})$/;

function parseAddr(a: string): { ip: string; port: number } | null {
  const m = ADDR.exec(a);
  if (!m) return null;
  return { ip: m[1] ?? m[2]!, port: Number(m[3]) };
}

/**
 * Closes a TCP socket with `ss -K` (the kernel's SOCK_DESTROY: needs CONFIG_INET_DIAG_DESTROY and
 * CAP_NET_ADMIN), then reads the tables again to tell whether it is really gone.
 */
export async function closeConnection(host: Host, id: string): Promise<{ closed: boolean; message: string }> {
  const [protocol, local, remote] = id.split('|');
  const l = local ? parseAddr(local) : null;
  const r = remote ? parseAddr(remote) : null;
  if (!protocol || !l || !r || !['tcp', 'tcp6', 'udp', 'udp6'].includes(protocol))
    throw fieldError('id', 'Not a connection id from the list.');
  const find = async () => (await readSockets()).find((s) => idOf(s) === id);
  const before = await find();
  if (!before) return { closed: true, message: 'The connection is already gone.' };
  if (protocol.startsWith('udp'))
    return {
      closed: false,
      message: 'UDP has no connections to close; stop the process that owns the socket instead.',
    };
  if (before.state === 'TIME_WAIT')
    return {
      closed: false,
      message: 'A TIME_WAIT socket belongs to no process; the kernel removes it by itself within a minute.',
    };
  const ss = await host.which('ss');
  if (!ss)
    return {
      closed: false,
      message:
        'The ss program (Debian package iproute2) is not installed, so Mailroom cannot close connections.',
    };
  const family = protocol === 'tcp6' ? '-6' : '-4';
  const filter =
    before.state === 'LISTEN'
      ? ['state', 'listening', 'src', l.ip.includes(':') ? `[${l.ip}]` : l.ip, 'sport', '=', `:${l.port}`]
      : [
          'src',
          l.ip.includes(':') ? `[${l.ip}]` : l.ip,
          'sport',
          '=',
          `:${l.port}`,
          'dst',
          r.ip.includes(':') ? `[${r.ip}]` : r.ip,
          'dport',
          '=',
          `:${r.port}`,
        ];
  const res = await host.run(ss, ['-K', '-t', family, ...filter]);
  const still = await find();
  if (!still) return { closed: true, message: `Closed ${local} → ${remote}.` };
  const out = (res.stderr.trim() || res.stdout.trim()).slice(0, 300);
  const why =
    res.code !== 0 && /not permitted|EPERM/i.test(out)
      ? 'Mailroom lacks the CAP_NET_ADMIN capability it needs to destroy sockets'
      : /SOCK_DESTROY|not supported|Operation not supported/i.test(out)
        ? 'this kernel does not allow closing sockets from outside (it needs CONFIG_INET_DIAG_DESTROY)'
        : `the kernel did not close it (ss -K ${res.code === 0 ? 'ran, but the socket is still there: this kernel most likely lacks CONFIG_INET_DIAG_DESTROY' : `said: ${out || `exit ${res.code}`}`})`;
  return {
    closed: false,
    message: `Could not close ${local} → ${remote}: ${why}. Stop or restart the process that owns it instead.`,
  };
}
