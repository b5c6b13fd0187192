import { promises as dns } from 'node:dns';
import { existsSync, readFileSync } from 'node:fs';
import os from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestContext } from '../harness.ts';
import { ownNsZoneForm } from '../dns-zone-form.ts';
import { freeTcpUdpPort } from '../free-udp-port.ts';
import { type NamedDaemon, startNamed } from '../named-daemon.ts';
import { skipLoudly } from '../skip-loudly.ts';

/**
 * Local mode (issue 22, item 20): the named Mailroom renders listens on loopback only and is
 * authoritative only. Proved on the running named: it answers its zone on 127.0.0.1, gives no
 * answer on this machine's other addresses (IPv4 and IPv6), and refuses a recursive question.
 */

const NAMED = ['/usr/sbin/named', '/usr/bin/named'].find((p) => existsSync(p));
const ZONE = 'local-mode.test';

/** This machine's addresses that are not loopback (link-local IPv6 left out: it needs a scope). */
const outside = Object.values(os.networkInterfaces())
  .flat()
  .filter((a): a is os.NetworkInterfaceInfo => !!a && !a.internal && !a.address.startsWith('fe80:'));

const skip = !NAMED
  ? 'named (Debian package bind9) missing: the local-mode named test is SKIPPED'
  : outside.length === 0
    ? 'this machine has no address besides loopback: the local-mode named test is SKIPPED'
    : null;
if (skip) skipLoudly(skip);

const resolverAt = (address: string, port: number) => {
  const r = new dns.Resolver({ timeout: 1500, tries: 1 });
  r.setServers([address.includes(':') ? `[${address}]:${port}` : `${address}:${port}`]);
  return r;
};

/** The resolver's error code, or 'answered'. */
async function outcome(p: Promise<unknown>): Promise<string> {
  try {
    await p;
    return 'answered';
  } catch (err) {
    return (err as { code?: string }).code ?? String(err);
  }
}

describe.skipIf(!!skip)('named in local mode: loopback only, authoritative only', () => {
  let t: TestContext;
  let named: NamedDaemon | undefined;
  let port = 0;

  beforeAll(async () => {
    t = await startTestApp('sqlite');
    port = await freeTcpUdpPort();
    const settings = (await t.call({ method: 'GET', url: '/api/dns/settings' })).json<object>();
    // Today's defaults otherwise: IPv6 on, recursion allowed (the settings say so; local mode overrides).
    const saved = await t.call({
      method: 'POST',
      url: '/api/dns/settings',
      payload: { ...settings, serverPort: port, enableIPv6: true, allowRecursiveQueries: true },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const zone = await t.call({ method: 'POST', url: '/api/dns/zones/add', payload: ownNsZoneForm(ZONE) });
    expect(zone.statusCode, zone.body).toBe(200);
    named = await startNamed(NAMED as string, (p) => t.deps.host.path(p));
  }, 120_000);

  afterAll(async () => {
    await named?.stop();
    await t?.close();
  });

  it('renders loopback listeners, no recursion and no cache', () => {
    const options = readFileSync(t.deps.host.path('/etc/bind/mailroom/options.conf'), 'utf8');
    expect(options).toContain(`listen-on port ${port} { 127.0.0.1; };`);
    expect(options).toContain(`listen-on-v6 port ${port} { ::1; };`);
    expect(options).not.toMatch(/\{ any; \}/);
    expect(options).toContain('recursion no;');
    expect(options).toContain('allow-recursion { none; };');
  });

  it('answers its zone on 127.0.0.1 and ::1', async () => {
    expect((await resolverAt('127.0.0.1', port).resolveSoa(ZONE)).nsname).toBe(`ns1.${ZONE}`);
    expect((await resolverAt('::1', port).resolveSoa(ZONE)).nsname).toBe(`ns1.${ZONE}`);
  });

  it("gives no answer on the machine's other addresses", async () => {
    for (const a of outside) {
      const got = await outcome(resolverAt(a.address, port).resolveSoa(ZONE));
      // Nothing listens there: the question goes unanswered (refused connection or time-out).
      expect({ address: a.address, got }).not.toEqual({ address: a.address, got: 'answered' });
    }
    expect(named?.log()).not.toMatch(/listening on IPv\d interface \w+, (?!127\.0\.0\.1|::1)/);
  });

  it('refuses a recursive question for a name outside its zones', async () => {
    const got = await outcome(resolverAt('127.0.0.1', port).resolve4('www.example.org'));
    expect(got).toBe('EREFUSED');
  });
});
