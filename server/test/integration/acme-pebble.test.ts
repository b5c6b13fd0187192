import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { X509Certificate, createPrivateKey } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReloadResult, ServiceControl } from '../../src/host/service-control.ts';
import {
  type AcmeIssueRequest,
  type CertificateStage,
  AcmeError,
  createAcmeIssuer,
} from '../../src/features/ssl/acme/acme-issuer.ts';
import { startTestApp, type TestContext } from '../harness.ts';
import { freeTcpUdpPort } from '../free-udp-port.ts';

// ACME against Debian's pebble (a test CA), validating through Mailroom's own HTTP-01 listener and
// DNS-01 records published in Mailroom's zones and served by a named started on its rendered config.
const PEBBLE = ['/usr/bin/pebble', '/usr/sbin/pebble'].find((p) => existsSync(p));
const NAMED = ['/usr/sbin/named', '/usr/bin/named'].find((p) => existsSync(p));
const CHECKCONF = ['/usr/bin/named-checkconf', '/usr/sbin/named-checkconf'].find((p) => existsSync(p));
const OPENSSL = ['/usr/bin/openssl'].find((p) => existsSync(p));
const missing = [
  !PEBBLE ? 'pebble (Debian package pebble)' : '',
  !NAMED ? 'named (Debian package bind9)' : '',
  !CHECKCONF ? 'named-checkconf (Debian package bind9-utils)' : '',
  !OPENSSL ? 'openssl (Debian package openssl)' : '',
]
  .filter(Boolean)
  .join(' and ');
if (missing) {
  const msg = `${missing} missing: the ACME (pebble) integration tests are SKIPPED`;
  if (process.env.MAILROOM_REQUIRE_ALL === '1') throw new Error(`${msg} and MAILROOM_REQUIRE_ALL=1`);
  process.stderr.write(`\n!!! ${msg} !!!\n\n`);
}

const ZONE = 'acme-it.test';
/** Every certificate pebble issues in this file lives this long (pebble's certificateValidityPeriod). */
const VALIDITY_SECONDS = 900;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function freeTcpPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const p = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(p));
    });
  });
}

async function waitForLog(proc: ChildProcess, log: () => string, re: RegExp, what: string, ms = 30_000) {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (re.test(log())) return;
    if (proc.exitCode !== null || proc.signalCode !== null) throw new Error(`${what} exited:\n${log()}`);
    await sleep(100);
  }
  throw new Error(`timed out waiting for ${what}:\n${log()}`);
}

async function stop(proc: ChildProcess | null) {
  const running = () => proc?.exitCode === null && proc.signalCode === null;
  if (!proc?.pid || !running()) return;
  const done = new Promise((r) => proc.once('exit', r));
  process.kill(proc.pid, 'SIGTERM');
  await Promise.race([done, sleep(5000)]);
  if (running()) process.kill(proc.pid, 'SIGKILL');
}

/** A CA and a server certificate for pebble's own HTTPS (the directory), made with openssl. */
function makeTlsFiles(dir: string): { ca: string; cert: string; key: string } {
  const f = (n: string) => path.join(dir, n);
  const run = (args: string[]) => {
    const r = spawnSync(OPENSSL as string, args, { encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`openssl ${args.join(' ')}: ${r.stderr}`);
  };
  run(['ecparam', '-name', 'prime256v1', '-genkey', '-noout', '-out', f('ca.key')]);
  run([
    'req', '-x509', '-new', '-key', f('ca.key'), '-subj', '/CN=acme-it test CA', '-days', '2',
    '-out', f('ca.pem'),
  ]); // prettier-ignore
  run(['ecparam', '-name', 'prime256v1', '-genkey', '-noout', '-out', f('server.key')]);
  run(['req', '-new', '-key', f('server.key'), '-subj', '/CN=localhost', '-out', f('server.csr')]);
  writeFileSync(f('ext.cnf'), 'subjectAltName=DNS:localhost,IP:127.0.0.1\n');
  run([
    'x509', '-req', '-in', f('server.csr'), '-CA', f('ca.pem'), '-CAkey', f('ca.key'),
    '-CAcreateserial', '-days', '2', '-extfile', f('ext.cnf'), '-out', f('server.pem'),
  ]); // prettier-ignore
  return { ca: f('ca.pem'), cert: f('server.pem'), key: f('server.key') };
}

describe.skipIf(!!missing)('ACME issuance against pebble', () => {
  let t: TestContext;
  let tmp = '';
  let named: ChildProcess | null = null;
  let pebble: ChildProcess | null = null;
  let namedLog = '';
  let pebbleLog = '';
  let directoryUrl = '';

  // named is reloaded by the DNS apply pipeline through this control, as the supervisor would.
  const services: ServiceControl = {
    async reload(name): Promise<ReloadResult> {
      if (name !== 'named' || !named?.pid || named.exitCode !== null)
        return { ok: true, attempted: false, output: 'not running' };
      process.kill(named.pid, 'SIGHUP');
      return { ok: true, attempted: true, output: 'SIGHUP' };
    },
    states: async () => [],
    close: async () => undefined,
  };

  const call = async (method: 'GET' | 'POST', url: string, payload?: object) => {
    const res = await t.call({ method, url: `/api/${url}`, ...(payload ? { payload } : {}) });
    return { status: res.statusCode, body: res.json<Record<string, unknown>>() };
  };

  const request = (over: Partial<AcmeIssueRequest>): AcmeIssueRequest => ({
    directoryUrl,
    contactEmail: 'hostmaster@example.org',
    domains: [`www.${ZONE}`],
    challenge: 'http-01',
    key: { algorithm: 'ECDSA', size: 256 },
    ...over,
  });

  const issue = async (over: Partial<AcmeIssueRequest>) => {
    const stages: { stage: CertificateStage; detail: string }[] = [];
    const issued = await createAcmeIssuer(t.deps)(
      request(over),
      (stage, detail) => stages.push({ stage, detail }),
      new AbortController().signal,
    );
    return { issued, stages };
  };

  beforeAll(async () => {
    tmp = mkdtempSync(path.join(os.tmpdir(), 'mailroom-acme-'));
    const tlsFiles = makeTlsFiles(tmp);
    const dnsPort = await freeTcpUdpPort();
    const httpPort = await freeTcpPort();
    const [acmePort, mgmtPort, tlsPort] = [await freeTcpPort(), await freeTcpPort(), await freeTcpPort()];
    t = await startTestApp('sqlite', {
      env: { MAILROOM_ACME_HTTP_PORT: String(httpPort), MAILROOM_ACME_CA_FILE: tlsFiles.ca },
      services: async () => services,
    });

    const settings = (await call('GET', 'dns/settings')).body;
    const saved = await call('POST', 'dns/settings', {
      ...settings,
      serverPort: dnsPort,
      enableIPv6: false,
      allowRecursiveQueries: false,
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    const zone = await call('POST', 'dns/zones/add', {
      domain: ZONE,
      zoneType: 'primary',
      primaryNs: `ns1.${ZONE}`,
      nsAddress: '127.0.0.1',
      adminEmail: 'hostmaster@example.org',
      serial: 1,
      refresh: 3600,
      retry: 1800,
      expire: 604800,
    });
    expect(zone.status, JSON.stringify(zone.body)).toBe(200);
    for (const qname of ['@', 'www', 'mail', 'renew']) {
      const res = await call('POST', `dns/zones/${ZONE}/records`, {
        qname,
        rtype: 'A',
        value: '127.0.0.1',
        ttl: 300,
      });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    }

    mkdirSync(t.deps.host.path('/run/named'), { recursive: true });
    named = spawn(NAMED as string, ['-g', '-c', t.deps.host.path('/etc/bind/mailroom/named.conf')], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    named.stdout?.on('data', (d: Buffer) => (namedLog += d.toString()));
    named.stderr?.on('data', (d: Buffer) => (namedLog += d.toString()));
    await waitForLog(named, () => namedLog, /\srunning\s*$/m, 'named');

    const config = path.join(tmp, 'pebble.json');
    writeFileSync(
      config,
      JSON.stringify({
        pebble: {
          listenAddress: `127.0.0.1:${acmePort}`,
          managementListenAddress: `127.0.0.1:${mgmtPort}`,
          certificate: tlsFiles.cert,
          privateKey: tlsFiles.key,
          httpPort,
          tlsPort,
          ocspResponderURL: '',
          externalAccountBindingRequired: false,
          certificateValidityPeriod: VALIDITY_SECONDS,
        },
      }),
    );
    pebble = spawn(PEBBLE as string, ['-config', config, '-dnsserver', `127.0.0.1:${dnsPort}`], {
      cwd: tmp,
      env: {
        ...process.env,
        PEBBLE_VA_NOSLEEP: '1',
        PEBBLE_WFE_NONCEREJECT: '0',
        PEBBLE_AUTHZREUSE: '0',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    pebble.stdout?.on('data', (d: Buffer) => (pebbleLog += d.toString()));
    pebble.stderr?.on('data', (d: Buffer) => (pebbleLog += d.toString()));
    await waitForLog(pebble, () => pebbleLog, /Listening on/, 'pebble');
    directoryUrl = `https://127.0.0.1:${acmePort}/dir`;
  }, 120_000);

  afterAll(async () => {
    await stop(pebble);
    await stop(named);
    await t?.close();
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  });

  const leafOf = (pem: string) => new X509Certificate(pem);
  const sans = (pem: string) =>
    (leafOf(pem).subjectAltName ?? '')
      .split(', ')
      .map((s) => s.replace(/^DNS:/, ''))
      .sort();

  it('issues through HTTP-01 answered by Mailroom’s own listener', async () => {
    const { issued, stages } = await issue({ domains: [`www.${ZONE}`, `mail.${ZONE}`] });
    const leaf = leafOf(issued.certificatePem);
    expect(sans(issued.certificatePem)).toEqual([`mail.${ZONE}`, `www.${ZONE}`]);
    // The key we were given is the certificate's key, and the chain signed the leaf.
    expect(leaf.checkPrivateKey(createPrivateKey(issued.privateKeyPem))).toBe(true);
    const chain = issued.chainPem.match(/-----BEGIN CERTIFICATE-----[^-]+-----END CERTIFICATE-----/g) ?? [];
    expect(chain.length).toBeGreaterThan(0);
    expect(leaf.verify(new X509Certificate(chain[0] as string).publicKey)).toBe(true);
    expect(leaf.publicKey.asymmetricKeyDetails?.namedCurve).toBe('prime256v1');
    expect(stages.map((s) => s.stage)).toEqual(expect.arrayContaining(['validate', 'key', 'request']));
    expect(stages.findIndex((s) => s.stage === 'key')).toBeLessThan(
      stages.findIndex((s) => s.stage === 'request'),
    );
    expect(stages.some((s) => /http-01/.test(s.detail))).toBe(true);
    // One account for the directory, its key stored encrypted.
    const accounts = await t.deps.database.db.selectFrom('acme_accounts').selectAll().execute();
    expect(accounts).toHaveLength(1);
    expect(accounts[0]?.directory_url).toBe(directoryUrl);
    expect(accounts[0]?.account_url).toMatch(/^https:\/\/127\.0\.0\.1:\d+\//);
    expect(accounts[0]?.account_key).not.toContain('PRIVATE KEY');
  });

  it('issues a wildcard through DNS-01 in Mailroom’s own zone, served by BIND, and removes the record', async () => {
    const { issued, stages } = await issue({
      domains: [`*.${ZONE}`, ZONE],
      challenge: 'dns-01',
      dnsProvider: 'mailroom',
      key: { algorithm: 'RSA', size: 2048 },
    });
    expect(sans(issued.certificatePem)).toEqual([`*.${ZONE}`, ZONE]);
    expect(leafOf(issued.certificatePem).publicKey.asymmetricKeyDetails?.modulusLength).toBe(2048);
    expect(stages.some((s) => /_acme-challenge\.acme-it\.test served/.test(s.detail))).toBe(true);
    // Both TXT records (apex and wildcard share the name) went through the pipeline and are gone.
    const txt = await t.deps.database.db
      .selectFrom('dns_records')
      .selectAll()
      .where('zone', '=', ZONE)
      .where('rtype', '=', 'TXT')
      .execute();
    expect(txt).toEqual([]);
    expect(namedLog).not.toMatch(/acme-it\.test.*not loaded due to errors/);
  });

  it('surfaces the CA’s own words when a challenge fails', async () => {
    // No address for this name in the zone: pebble cannot reach it and says why.
    const err = await issue({ domains: [`nowhere.${ZONE}`] }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(AcmeError);
    const acmeErr = err as AcmeError;
    expect(acmeErr.caMessage, acmeErr.message).toMatch(/nowhere\.acme-it\.test/);
    expect(acmeErr.message).toContain(acmeErr.caMessage as string);
  });

  it('refuses Ed25519 and a wildcard over HTTP-01 before asking the CA', async () => {
    const ed = await issue({ key: { algorithm: 'Ed25519', size: 256 } }).catch((e: unknown) => e);
    expect(ed).toBeInstanceOf(AcmeError);
    expect((ed as Error).message).toMatch(/Ed25519/);
    const wild = await issue({ domains: [`*.${ZONE}`] }).catch((e: unknown) => e);
    expect((wild as Error).message).toMatch(/dns-01/);
  });

  it('issues a short-lived certificate and renews it with a second order for the same names', async () => {
    const names = [`renew.${ZONE}`];
    const first = (await issue({ domains: names, key: { algorithm: 'ECDSA', size: 384 } })).issued;
    const a = leafOf(first.certificatePem);
    const lifetime = (Date.parse(a.validTo) - Date.parse(a.validFrom)) / 1000;
    expect(lifetime).toBeGreaterThan(VALIDITY_SECONDS - 5);
    expect(lifetime).toBeLessThan(VALIDITY_SECONDS + 5);
    expect(a.publicKey.asymmetricKeyDetails?.namedCurve).toBe('secp384r1');

    const second = (await issue({ domains: names, key: { algorithm: 'ECDSA', size: 384 } })).issued;
    const b = leafOf(second.certificatePem);
    expect(sans(second.certificatePem)).toEqual(names);
    expect(b.serialNumber).not.toBe(a.serialNumber);
    expect(second.privateKeyPem).not.toBe(first.privateKeyPem);
    expect(Date.parse(b.validTo)).toBeGreaterThanOrEqual(Date.parse(a.validTo));
    // The same account served both orders.
    expect(await t.deps.database.db.selectFrom('acme_accounts').selectAll().execute()).toHaveLength(1);
  });

  it('lists the DNS providers with their availability', async () => {
    const res = await call('GET', 'ssl/acme/providers');
    expect(res.status).toBe(200);
    const providers = res.body.providers as { id: string; available: boolean }[];
    expect(providers.filter((p) => p.available).map((p) => p.id)).toEqual(['mailroom', 'cloudflare']);
    expect(providers.map((p) => p.id)).toEqual(
      expect.arrayContaining(['route53', 'godaddy', 'namecheap', 'digitalocean']),
    );
    expect(res.body.httpListenerPort).toBe(t.deps.config.acme.httpPort);
  });
});
