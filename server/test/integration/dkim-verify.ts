import { spawnSync } from 'node:child_process';
import dgram from 'node:dgram';
import { existsSync, readFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';

/**
 * Test helpers for DKIM proofs without the network: Debian's dkimverify fed the TXT records
 * Mailroom publishes, and a name server that refuses everything (for rspamd's resolver).
 */

const BIN_DIRS = ['/usr/sbin', '/usr/bin', '/sbin', '/bin'];
const which = (cmd: string) => BIN_DIRS.map((d) => path.join(d, cmd)).find((p) => existsSync(p)) ?? null;

/** The interpreter Debian's dkimverify runs with (its shebang), which has the `dkim` module. */
export function dkimPython(): string | null {
  const verify = which('dkimverify');
  if (!verify) return null;
  const first = readFileSync(verify, 'utf8').split('\n')[0] ?? '';
  return first.startsWith('#!') ? first.slice(2).trim().split(/\s+/)[0]! : null;
}

/**
 * Runs Debian's own `dkimverify` entry point on `message`, with DNS answered from `records`
 * (name → TXT) instead of the network: the public key comes from what Mailroom publishes.
 */
export function dkimverify(message: string, records: Record<string, string>): { ok: boolean; out: string } {
  const wrapper = `
import json, sys, types
records = json.loads(sys.argv[1])
stub = types.ModuleType('dkim.dnsplug')
def get_txt(name, timeout=5):
    n = name.decode() if isinstance(name, bytes) else name
    v = records.get(n.rstrip('.'))
    return v.encode() if v is not None else None
stub.get_txt = get_txt
sys.modules['dkim.dnsplug'] = stub
sys.argv = ['dkimverify']
from dkim.dkimverify import main
main()
`;
  const r = spawnSync(dkimPython()!, ['-c', wrapper, JSON.stringify(records)], {
    input: message,
    encoding: 'latin1',
  });
  return { ok: r.status === 0, out: `${r.stdout}${r.stderr}`.trim() };
}

/** The REFUSED answer to one DNS query (same id and question), or null when it is too short. */
function refused(query: Buffer): Buffer | null {
  if (query.length < 12) return null;
  const reply = Buffer.from(query);
  reply[2] = (reply[2]! | 0x80) & ~0x04; // QR, not authoritative
  reply[3] = (reply[3]! & 0xf0) | 5; // REFUSED
  return reply;
}

/**
 * A name server that refuses everything, over UDP and TCP on 127.0.0.1:`port`: rspamd's only
 * resolver here, so no lookup leaves the machine.
 */
export async function refusingDns(port: number): Promise<{ queries: () => number; close: () => void }> {
  let n = 0;
  const udp = dgram.createSocket('udp4');
  udp.on('message', (msg, rinfo) => {
    const reply = refused(msg);
    if (!reply) return;
    n++;
    udp.send(reply, rinfo.port, rinfo.address);
  });
  // TCP: each message is preceded by its length (two bytes, network order).
  const sockets = new Set<net.Socket>();
  const tcp = net.createServer((sock) => {
    sockets.add(sock);
    sock.on('close', () => sockets.delete(sock));
    sock.on('error', () => undefined);
    let buf = Buffer.alloc(0);
    sock.on('data', (d: Buffer) => {
      buf = Buffer.concat([buf, d]);
      while (buf.length >= 2 && buf.length >= 2 + buf.readUInt16BE(0)) {
        const len = buf.readUInt16BE(0);
        const reply = refused(buf.subarray(2, 2 + len));
        buf = buf.subarray(2 + len);
        if (!reply) continue;
        n++;
        const head = Buffer.alloc(2);
        head.writeUInt16BE(reply.length);
        sock.write(Buffer.concat([head, reply]));
      }
    });
  });
  await new Promise<void>((resolve, reject) => {
    udp.once('error', reject);
    udp.bind(port, '127.0.0.1', () => resolve());
  });
  await new Promise<void>((resolve, reject) => {
    tcp.once('error', reject);
    tcp.listen(port, '127.0.0.1', () => resolve());
  });
  return {
    queries: () => n,
    close: () => {
      udp.close();
      for (const s of sockets) s.destroy();
      tcp.close();
    },
  };
}
