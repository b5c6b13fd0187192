import { spawnSync } from 'node:child_process';
import { promises as dns } from 'node:dns';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import net from 'node:net';
import Fastify, { type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerDns } from '../../src/features/dns/dns.module.ts';
import { Host } from '../../src/host/host.ts';
import { installErrorHandler } from '../../src/http/error-handler.ts';
import { startTestApp, type TestContext } from '../harness.ts';
import { ownNsZoneForm, zoneForm } from '../dns-zone-form.ts';
import { eventually, sleep } from '../eventually.ts';
import { freeTcpUdpPort } from '../free-udp-port.ts';
import { type NamedDaemon, startNamed } from '../named-daemon.ts';
import { skipLoudly } from '../skip-loudly.ts';

const NAMED = ['/usr/sbin/named', '/usr/bin/named'].find((p) => existsSync(p));
const RNDC = ['/usr/sbin/rndc', '/usr/bin/rndc'].find((p) => existsSync(p));
const RNDC_CONFGEN = ['/usr/sbin/rndc-confgen', '/usr/bin/rndc-confgen'].find((p) => existsSync(p));
const CHECKCONF = ['/usr/bin/named-checkconf', '/usr/sbin/named-checkconf'].find((p) => existsSync(p));
const missing = [
  !NAMED ? 'named (Debian package bind9)' : '',
  !CHECKCONF ? 'named-checkconf (Debian package bind9-utils)' : '',
]
  .filter(Boolean)
  .join(' and ');
if (missing) {
  const msg = `${missing} missing: the BIND integration tests are SKIPPED`;
  skipLoudly(msg);
}

/** One AXFR over TCP from 127.0.0.1: the first message's RCODE and answer count. */
async function axfr(port: number, zone: string): Promise<{ rcode: number; answers: number }> {
  const labels = zone.split('.').map((l) => Buffer.concat([Buffer.from([l.length]), Buffer.from(l)]));
  const question = Buffer.concat([...labels, Buffer.from([0, 0, 252, 0, 1])]); // QTYPE AXFR, QCLASS IN
  const header = Buffer.from([0x4d, 0x52, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0]);
  const msg = Buffer.concat([header, question]);
  const framed = Buffer.concat([Buffer.from([msg.length >> 8, msg.length & 0xff]), msg]);
  return new Promise((resolve, reject) => {
    const sock = net.connect({ host: '127.0.0.1', port, localAddress: '127.0.0.1' });
    let buf = Buffer.alloc(0);
    const timer = setTimeout(() => {
      sock.destroy();
      reject(new Error('AXFR timed out'));
    }, 5000);
    sock.on('connect', () => sock.write(framed));
    sock.on('data', (d: Buffer) => {
      buf = Buffer.concat([buf, d]);
      if (buf.length < 2) return;
      const len = buf.readUInt16BE(0);
      if (buf.length < 2 + len) return;
      clearTimeout(timer);
      sock.destroy();
      resolve({ rcode: buf[2 + 3]! & 0x0f, answers: buf.readUInt16BE(2 + 6) });
    });
    sock.on('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
  });
}

const LONG_TXT = 'v=DKIM1; k=rsa; p=' + 'A'.repeat(400) + ' "quoted" and \\ back';
const ZONE = 'mailroom-it.test';

describe.skipIf(!!missing)('DNS served by a real BIND named', () => {
  let t: TestContext;
  let named: NamedDaemon | undefined;
  const log = () => named?.log() ?? '';
  let port = 0;
  const resolver = new dns.Resolver({ timeout: 2000, tries: 2 });

  const call = async (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown) => {
    const res = await t.call({
      method,
      url: `/api/${url}`,
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
    return { status: res.statusCode, body: res.json<Record<string, unknown>>() };
  };
  const reload = () => named?.child.kill('SIGHUP');
  const serial = async () => (await resolver.resolveSoa(ZONE)).serial;

  beforeAll(async () => {
    t = await startTestApp('sqlite');
    port = await freeTcpUdpPort();
    resolver.setServers([`127.0.0.1:${port}`]);
    const settings = (await call('GET', 'dns/settings')).body;
    const saved = await call('POST', 'dns/settings', {
      ...settings,
      serverPort: port,
      enableIPv6: false,
      allowRecursiveQueries: false,
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);

    const zone = await call('POST', 'dns/zones/add', ownNsZoneForm(ZONE));
    expect(zone.status, JSON.stringify(zone.body)).toBe(200);
    const records = [
      { qname: 'www', rtype: 'A', value: '192.0.2.10', ttl: 300 },
      { qname: 'www', rtype: 'AAAA', value: '2001:db8::10', ttl: 300 },
      { qname: '@', rtype: 'MX', value: `mail.${ZONE}`, ttl: 300, priority: 10 },
      { qname: 'mail', rtype: 'A', value: '192.0.2.25', ttl: 300 },
      { qname: 'sel._domainkey', rtype: 'TXT', value: LONG_TXT, ttl: 300 },
      {
        qname: '_sip._tcp',
        rtype: 'SRV',
        value: `sip.${ZONE}`,
        ttl: 300,
        priority: 5,
        weight: 20,
        port: 5060,
      },
      { qname: 'sip', rtype: 'A', value: '192.0.2.26', ttl: 300 },
      { qname: 'docs', rtype: 'CNAME', value: `www.${ZONE}`, ttl: 300 },
    ];
    for (const r of records) {
      const res = await call('POST', `dns/zones/${ZONE}/records`, r);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    }

    named = await startNamed(NAMED as string, (p) => t.deps.host.path(p));
  }, 120_000);

  afterAll(async () => {
    await named?.stop();
    await t?.close();
  });

  it('answers A, AAAA, MX, TXT, SRV and CNAME as created through the API', async () => {
    expect(await resolver.resolve4(`www.${ZONE}`)).toEqual(['192.0.2.10']);
    expect(await resolver.resolve6(`www.${ZONE}`)).toEqual(['2001:db8::10']);
    expect(await resolver.resolveMx(ZONE)).toEqual([{ exchange: `mail.${ZONE}`, priority: 10 }]);
    const txt = await resolver.resolveTxt(`sel._domainkey.${ZONE}`);
    expect(txt).toHaveLength(1);
    // Split into ≤ 255-byte strings, joined back to the exact text (quotes and backslash kept).
    expect(txt[0]?.length).toBeGreaterThan(1);
    expect(txt[0]?.every((s) => Buffer.byteLength(s) <= 255)).toBe(true);
    expect(txt[0]?.join('')).toBe(LONG_TXT);
    expect(await resolver.resolveSrv(`_sip._tcp.${ZONE}`)).toEqual([
      { name: `sip.${ZONE}`, port: 5060, priority: 5, weight: 20 },
    ]);
    expect(await resolver.resolveCname(`docs.${ZONE}`)).toEqual([`www.${ZONE}`]);
    expect(await resolver.resolve4(`ns1.${ZONE}`)).toEqual(['192.0.2.53']);
    const soa = await resolver.resolveSoa(ZONE);
    expect(soa.nsname).toBe(`ns1.${ZONE}`);
    expect(soa.hostmaster).toBe('hostmaster.example.org');
  });

  it('serves an edit after a reload, with a higher serial', async () => {
    const before = await serial();
    const res = await call('PUT', `dns/zones/${ZONE}/records/www/A`, {
      qname: 'www',
      rtype: 'A',
      value: '192.0.2.99',
      ttl: 300,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    reload();
    await eventually(
      'the edited address',
      () => resolver.resolve4(`www.${ZONE}`),
      (a) => a[0] === '192.0.2.99',
    );
    expect(await serial()).toBeGreaterThan(before);
  });

  it('refuses a record that makes the zone invalid, and the served zone stays as it was', async () => {
    const file = t.deps.host.path(`/etc/bind/mailroom/zones/db.${ZONE}`);
    const textBefore = readFileSync(file, 'utf8');
    const before = await serial();
    // An in-zone nameserver without an address: named-checkconf -z refuses the zone.
    const res = await call('POST', `dns/zones/${ZONE}/records`, {
      qname: '@',
      rtype: 'NS',
      value: 'ns9',
      ttl: 300,
    });
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('CHECK_FAILED');
    expect(String(res.body.message)).toMatch(/ns9\.mailroom-it\.test.*no address records/);
    expect(readFileSync(file, 'utf8')).toBe(textBefore);
    const list = await call('GET', `dns/records/${ZONE}?type=NS`);
    expect(list.body).toEqual([]);
    const status = await call('GET', 'dns/status');
    expect(status.body.ok).toBe(false);
    reload();
    await sleep(500);
    expect(await serial()).toBe(before);
    expect(await resolver.resolveNs(ZONE)).toEqual([`ns1.${ZONE}`]);
  });

  it('refuses zone transfers by default and allows them to a listed secondary server', async () => {
    const first = await axfr(port, ZONE);
    expect(first, log()).toEqual({ rcode: 5, answers: 0 }); // REFUSED: nobody is listed
    const settings = (await call('GET', 'dns/settings')).body;
    expect(settings.allowTransfer).toBe(true);
    const saved = await call('POST', 'dns/settings', { ...settings, secondaryServers: ['127.0.0.1'] });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    reload();
    const allowed = await eventually(
      'the transfer to be allowed',
      () => axfr(port, ZONE),
      (r) => r.rcode === 0,
    );
    expect(allowed.answers).toBeGreaterThan(5);
    const back = await call('POST', 'dns/settings', { ...saved.body, secondaryServers: [] });
    expect(back.status, JSON.stringify(back.body)).toBe(200);
    reload();
    await eventually(
      'the transfer to be refused again',
      () => axfr(port, ZONE),
      (r) => r.rcode === 5,
    );
  });

  it('stops serving a removed zone', async () => {
    const refused = await call('POST', `dns/zones/remove/${ZONE}`);
    expect(refused.status).toBe(409);
    const res = await call('POST', `dns/zones/remove/${ZONE}?force=1`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(existsSync(t.deps.host.path(`/etc/bind/mailroom/zones/db.${ZONE}`))).toBe(false);
    reload();
    const err = await eventually(
      'the zone to go',
      () =>
        resolver.resolve4(`www.${ZONE}`).then(
          () => 'still served',
          (e: NodeJS.ErrnoException) => e.code ?? 'error',
        ),
      (code) => code === 'EREFUSED' || code === 'ENOTFOUND',
    );
    expect(['EREFUSED', 'ENOTFOUND']).toContain(err);
  });

  it('reports the name server online on the dashboard while named runs', async () => {
    const res = await call('GET', 'dns/dashboard');
    expect(res.body.serverStatus).toBe('online');
  });
});

/** Whether nothing listens on 127.0.0.1:953, named's default control channel. */
async function controlPortFree(): Promise<boolean> {
  return new Promise((resolve) => {
    const s = net.createServer();
    s.once('error', () => resolve(false));
    s.listen(953, '127.0.0.1', () => s.close(() => resolve(true)));
  });
}

// System mode: the rendered configuration opens named's rndc channel with the control key under
// the host root, and Mailroom reloads with `rndc reload` after each change.
const rndcMissing = !RNDC || !RNDC_CONFGEN;
if (!missing && rndcMissing) {
  const msg = 'rndc or rndc-confgen missing (Debian package bind9): the rndc reload test is SKIPPED';
  skipLoudly(msg);
}

const controlBusy = !missing && !rndcMissing && !(await controlPortFree());
if (controlBusy) {
  const msg = '127.0.0.1:953 (rndc control channel) is in use: the rndc reload test is SKIPPED';
  skipLoudly(msg);
}

describe.skipIf(!!missing || rndcMissing || controlBusy)('system mode reloads named with rndc', () => {
  let t: TestContext;
  let app: FastifyInstance;
  let named: NamedDaemon | undefined;
  const log = () => named?.log() ?? '';
  const resolver = new dns.Resolver({ timeout: 2000, tries: 2 });
  const call = async (method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) => {
    const res = await app.inject({ method, url: `/api/${url}`, ...(payload ? { payload } : {}) });
    return { status: res.statusCode, body: res.json<Record<string, unknown>>() };
  };

  beforeAll(async () => {
    t = await startTestApp('sqlite');
    const host = new Host(t.deps.host.root, true);
    app = Fastify();
    app.setValidatorCompiler(validatorCompiler);
    app.setSerializerCompiler(serializerCompiler);
    installErrorHandler(app);
    registerDns(app, { ...t.deps, host }, { listenOn: ['127.0.0.1'] });
    await app.ready();

    // A control key of the test's own (Debian's belongs to the bind user, which named as root
    // may not read once it has dropped its capabilities).
    mkdirSync(host.path('/etc/bind'), { recursive: true });
    const keyGen = spawnSync(RNDC_CONFGEN as string, ['-a', '-c', host.path('/etc/bind/rndc.key')]);
    expect(keyGen.status, keyGen.stderr.toString()).toBe(0);

    const port = await freeTcpUdpPort();
    resolver.setServers([`127.0.0.1:${port}`]);
    const settings = (await call('GET', 'dns/settings')).body;
    await call('POST', 'dns/settings', {
      ...settings,
      serverPort: port,
      enableIPv6: false,
      allowRecursiveQueries: false,
    });
    const zone = await call('POST', 'dns/zones/add', zoneForm('rndc-it.test'));
    expect(zone.status, JSON.stringify(zone.body)).toBe(200);
    await call('POST', 'dns/zones/rndc-it.test/records', { qname: 'www', rtype: 'A', value: '192.0.2.1' });
    const options = readFileSync(host.path('/etc/bind/mailroom/options.conf'), 'utf8');
    expect(options).toContain(`include "${host.path('/etc/bind/rndc.key')}";`);
    expect(options).toContain(`listen-on port ${port} { 127.0.0.1; };`);

    named = await startNamed(NAMED as string, (p) => host.path(p));
  }, 120_000);

  afterAll(async () => {
    await named?.stop();
    await app?.close();
    await t?.close();
  });

  it('serves an edit after the rndc reload Mailroom runs itself', async () => {
    expect(await resolver.resolve4('www.rndc-it.test')).toEqual(['192.0.2.1']);
    const res = await call('PUT', 'dns/zones/rndc-it.test/records/www/A', {
      qname: 'www',
      rtype: 'A',
      value: '192.0.2.2',
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const status = (await call('GET', 'dns/status')).body as {
      reload: { attempted: boolean; ok: boolean; output: string };
    };
    expect(status.reload, `${JSON.stringify(status.reload)}\n${log()}`).toMatchObject({
      attempted: true,
      ok: true,
    });
    expect(status.reload.output).toContain('rndc reload rndc-it.test');
    await eventually(
      'the reloaded address',
      () => resolver.resolve4('www.rndc-it.test'),
      (a) => a[0] === '192.0.2.2',
    );
  });
});
