import { spawnSync } from 'node:child_process';
import dgram from 'node:dgram';
import { existsSync, readFileSync } from 'node:fs';
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

/** A name server that refuses everything: rspamd's only resolver here, so no lookup leaves. */
export function refusingDns(port: number): Promise<{ queries: () => number; close: () => void }> {
  const sock = dgram.createSocket('udp4');
  let n = 0;
  sock.on('message', (msg, rinfo) => {
    if (msg.length < 12) return;
    n++;
    const reply = Buffer.from(msg);
    reply[2] = (reply[2]! | 0x80) & ~0x04; // QR, not authoritative
    reply[3] = (reply[3]! & 0xf0) | 5; // REFUSED
    sock.send(reply, rinfo.port, rinfo.address);
  });
  return new Promise((resolve) => {
    sock.bind(port, '127.0.0.1', () => resolve({ queries: () => n, close: () => sock.close() }));
  });
}
