import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestContext } from '../harness.ts';
import { skipLoudly } from '../skip-loudly.ts';
import { ApacheProcess, freePort, openForApache, request } from './web-apache-helpers.ts';

const haveApache = (() => {
  try {
    execFileSync('apache2', ['-v']);
    return true;
  } catch {
    return false;
  }
})();
if (!haveApache)
  skipLoudly(
    'apache2 is not installed (Debian package apache2): the web hosting integration tests are skipped',
  );

describe.skipIf(!haveApache)('Apache from Mailroom’s rendered files (local mode)', () => {
  let t: TestContext;
  let apache: ApacheProcess;
  let httpPort: number;
  let httpsPort: number;
  const call = (method: 'GET' | 'POST', url: string, payload?: object) =>
    t.call({ method, url: `/api/${url}`, ...(payload ? { payload } : {}) });
  const root = () => t.deps.host.root;

  beforeAll(async () => {
    httpPort = await freePort();
    httpsPort = await freePort();
    t = await startTestApp('sqlite', {
      env: { MAILROOM_HTTP_PORT: String(httpPort), MAILROOM_HTTPS_PORT: String(httpsPort) },
    });
    openForApache(t.dataDir);
    // The first apply renders the server-wide files; Apache then starts from them, unedited.
    const first = await call('POST', 'web/settings/reset');
    expect(first.statusCode, first.body).toBe(200);
    apache = new ApacheProcess(
      path.join(root(), 'etc/apache2'),
      path.join(root(), 'run/apache2/mailroom-apache2.pid'),
    );
    await apache.start(httpPort);
  }, 60_000);
  afterAll(async () => {
    await apache?.stop();
    await t?.close();
  });

  it('a new virtual host answers 200 with its index by Host header; an alias too; an unknown name gets no site', async () => {
    const res = await call('POST', 'web/vhosts/add', {
      domain: 'shop.example.com',
      serverName: 'shop.example.com',
      serverAlias: ['www.shop.example.com'],
      documentRoot: '/var/www/shop.example.com',
    });
    expect(res.statusCode, res.body).toBe(200);
    writeFileSync(t.deps.host.path('/var/www/shop.example.com/index.html'), 'Welcome to the shop\n');
    const a = await request(httpPort, 'shop.example.com');
    expect(a.status).toBe(200);
    expect(a.body).toBe('Welcome to the shop\n');
    const b = await request(httpPort, 'www.shop.example.com');
    expect(b.status).toBe(200);
    expect(b.body).toBe('Welcome to the shop\n');
    const c = await request(httpPort, 'unknown.example.org');
    expect(c.status).toBe(404);
    expect(c.body).not.toContain('shop');
    // Real figures: Apache's shared access log (%v, %D) rolled up in the database; the probe is not traffic.
    const list = (await call('GET', 'web/vhosts?q=shop')).json();
    expect(list[0]).toMatchObject({ domain: 'shop.example.com', traffic: 2 });
    expect(list[0].responseTime).toBeGreaterThan(0);
    const d = (await call('GET', 'web/dashboard')).json();
    expect(d.stats.totalTraffic).toBe(3);
    expect(d.stats.errorRate).toBe(0);
    expect(d.stats.averageResponseTime).toBeGreaterThan(0);
    // Apache's real state: the master this test started, found through Mailroom's pid file.
    expect(d.status[0]).toMatchObject({ name: 'Web Server', state: 'running', pid: apache.masterPid() });
    expect(d.stats.uptime).toBeGreaterThanOrEqual(0);
  });

  const site = async (domain: string, extra: object = {}) => {
    const res = await call('POST', 'web/vhosts/add', {
      domain,
      serverName: domain,
      documentRoot: `/var/www/${domain}`,
      enableCaching: false,
      ...extra,
    });
    expect(res.statusCode, res.body).toBe(200);
    writeFileSync(t.deps.host.path(`/var/www/${domain}/index.html`), `This is ${domain}\n`);
    return res.json<{ vhost: { id: number } }>().vhost;
  };
  const update = async (domain: string, patch: object) => {
    const cur = (await call('GET', `web/vhosts/${domain}`)).json<Record<string, unknown>>();
    const body = Object.fromEntries(
      Object.entries({ ...cur, ...patch }).filter(
        ([k]) => !['id', 'lastModified', 'traffic', 'responseTime', 'siteUser', 'live'].includes(k),
      ),
    );
    return call('POST', `web/vhosts/update/${domain}`, body);
  };

  /** A self-signed certificate for these names, stored through the SSL area's upload. */
  const storeCertificate = async (names: string[]): Promise<{ id: number; fingerprint: string }> => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'mailroom-cert-'));
    try {
      execFileSync(
        'openssl',
        [
          'req',
          '-x509',
          '-newkey',
          'rsa:2048',
          '-nodes',
          '-days',
          '30',
          '-subj',
          `/CN=${names[0]}`,
          '-addext',
          `subjectAltName=${names.map((n) => `DNS:${n}`).join(',')}`,
          '-keyout',
          path.join(dir, 'key.pem'),
          '-out',
          path.join(dir, 'cert.pem'),
        ],
        { stdio: 'ignore' },
      );
      const res = await call('POST', 'ssl/certificates/upload', {
        domain: names[0],
        certificateType: 'SAN',
        certificate: readFileSync(path.join(dir, 'cert.pem'), 'utf8'),
        privateKey: readFileSync(path.join(dir, 'key.pem'), 'utf8'),
        keySize: 2048,
      });
      expect(res.statusCode, res.body).toBe(200);
      return res.json<{ id: number; fingerprint: string }>();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  };

  it('HTTPS presents each host its chosen certificate by SNI; HTTP -> HTTPS answers 301', async () => {
    const a = await storeCertificate(['alpha.example.com']);
    const b = await storeCertificate(['beta.example.com', 'www.beta.example.com']);
    await site('alpha.example.com', { sslEnabled: true, sslCertificateId: a.id, redirectHttpToHttps: true });
    await site('beta.example.com', {
      serverAlias: ['www.beta.example.com'],
      sslEnabled: true,
      sslCertificateId: b.id,
    });
    const ra = await request(httpsPort, 'alpha.example.com', { tls: true });
    expect(ra.status).toBe(200);
    expect(ra.body).toBe('This is alpha.example.com\n');
    expect(ra.fingerprint).toBe(a.fingerprint);
    const rb = await request(httpsPort, 'www.beta.example.com', { tls: true });
    expect(rb.status).toBe(200);
    expect(rb.fingerprint).toBe(b.fingerprint);
    const redirect = await request(httpPort, 'alpha.example.com', { path: '/page?x=1' });
    expect(redirect.status).toBe(301);
    expect(redirect.headers.location).toBe(`https://alpha.example.com:${httpsPort}/page?x=1`);
    // HSTS (web server settings, on by default) only over HTTPS.
    expect(ra.headers['strict-transport-security']).toBe('max-age=31536000');
    expect(
      (await request(httpPort, 'beta.example.com')).headers['strict-transport-security'],
    ).toBeUndefined();
  });

  it('the SSL settings that apply to the web server reach Apache: TLS 1.2 switched off is refused (openssl s_client)', async () => {
    const handshake = (version: '-tls1_2' | '-tls1_3') => {
      try {
        execFileSync(
          'openssl',
          ['s_client', '-connect', `127.0.0.1:${httpsPort}`, '-servername', 'alpha.example.com', version],
          { input: '', stdio: ['pipe', 'pipe', 'pipe'], timeout: 10_000 },
        );
        return true;
      } catch {
        return false;
      }
    };
    expect(handshake('-tls1_2')).toBe(true);
    const save = async (patch: object) => {
      const cur = (await call('GET', 'ssl/settings')).json<{ settings: object; version: number }>();
      const res = await call('POST', 'ssl/settings', {
        settings: { ...cur.settings, ...patch },
        version: cur.version,
      });
      expect(res.statusCode, res.body).toBe(200);
    };
    await save({ enableTls12: false, enableTls13: true, maximumTlsVersion: '1.3' });
    expect(readFileSync(path.join(root(), 'etc/apache2/conf-available/zz-mailroom.conf'), 'utf8')).toContain(
      'SSLProtocol -all +TLSv1.3\n',
    );
    expect(handshake('-tls1_2')).toBe(false);
    expect(handshake('-tls1_3')).toBe(true);
    await save({ enableTls12: true });
    expect(handshake('-tls1_2')).toBe(true);
  });

  it('refuses a certificate that does not cover the names before anything is applied', async () => {
    const other = await storeCertificate(['other.example.net']);
    const res = await call('POST', 'web/vhosts/add', {
      domain: 'gamma.example.com',
      serverName: 'gamma.example.com',
      documentRoot: '/var/www/gamma.example.com',
      sslEnabled: true,
      sslCertificateId: other.id,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().details[0]).toEqual({
      field: 'sslCertificateId',
      message: 'The certificate does not cover gamma.example.com',
    });
    expect((await call('GET', 'web/vhosts/gamma.example.com')).statusCode).toBe(404);
  });

  it('maintenance: 503 with Retry-After and the message, 200 from an allowed address, ACME still answered', async () => {
    await site('care.example.com', { allowedIps: ['127.0.0.2'] });
    const res = await call('POST', 'web/vhosts/status/care.example.com', { status: 'maintenance' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().vhost).toMatchObject({ status: 'maintenance', enableMaintenanceMode: true });
    const msg = await update('care.example.com', { maintenanceMessage: 'Back at 10:00 <promise>' });
    expect(msg.statusCode, msg.body).toBe(200);
    const closed = await request(httpPort, 'care.example.com');
    expect(closed.status).toBe(503);
    expect(closed.headers['retry-after']).toBe('3600');
    expect(closed.body).toContain('Back at 10:00 &lt;promise&gt;');
    const allowed = await request(httpPort, 'care.example.com', { from: '127.0.0.2' });
    expect(allowed.status).toBe(200);
    expect(allowed.body).toBe('This is care.example.com\n');
    writeFileSync(
      t.deps.host.path('/var/lib/mailroom/acme-webroot/.well-known/acme-challenge/tok-1'),
      'tok-1.thumb',
    );
    const acme = await request(httpPort, 'care.example.com', { path: '/.well-known/acme-challenge/tok-1' });
    expect(acme.status).toBe(200);
    expect(acme.body).toBe('tok-1.thumb');
  });

  it('inactive: 503, never another site’s content', async () => {
    await site('off.example.com');
    const res = await call('POST', 'web/vhosts/status/off.example.com', { status: 'inactive' });
    expect(res.statusCode, res.body).toBe(200);
    const r = await request(httpPort, 'off.example.com');
    expect(r.status).toBe(503);
    expect(r.body).not.toContain('This is');
  });

  it('a blocked address (127.0.0.2) gets 403, others 200', async () => {
    await site('guarded.example.com', { enableAccessControl: true, blockedIps: ['127.0.0.2'] });
    expect((await request(httpPort, 'guarded.example.com', { from: '127.0.0.2' })).status).toBe(403);
    expect((await request(httpPort, 'guarded.example.com')).status).toBe(200);
  });

  it('rate limit: mod_security2 answers 429 with Retry-After after N requests per address', async () => {
    await site('busy.example.com', { enableRateLimiting: true, rateLimitRequests: 3, rateLimitWindow: 60 });
    const codes: number[] = [];
    let last;
    for (let i = 0; i < 5; i++) {
      last = await request(httpPort, 'busy.example.com');
      codes.push(last.status);
      // mod_security stores the address's count after the answer is sent (logging phase): a
      // request sent the same instant can still read the count before it.
      await new Promise((r) => setTimeout(r, 150));
    }
    expect(codes).toEqual([200, 200, 200, 429, 429]);
    expect(last?.headers['retry-after']).toBe('60');
    // Another address has its own count.
    expect((await request(httpPort, 'busy.example.com', { from: '127.0.0.2' })).status).toBe(200);
  });

  it('gzip, security headers and ServerTokens are visible in the answers', async () => {
    await site('plain.example.com');
    writeFileSync(t.deps.host.path('/var/www/plain.example.com/index.html'), '<p>hello</p>\n'.repeat(200));
    const r = await request(httpPort, 'plain.example.com', { headers: { 'accept-encoding': 'gzip' } });
    expect(r.status).toBe(200);
    expect(r.headers['content-encoding']).toBe('gzip');
    expect(r.headers['x-frame-options']).toBe('SAMEORIGIN');
    expect(r.headers['x-content-type-options']).toBe('nosniff');
    expect(r.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
    expect(r.headers.server).toMatch(/^Apache\/2\.4\.\d+$/);
    const s = (await call('GET', 'web/settings')).json<Record<string, unknown>>();
    const saved = await call('POST', 'web/settings', {
      ...s,
      serverTokens: 'ProductOnly',
      xFrameOptions: 'DENY',
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const after = await request(httpPort, 'plain.example.com');
    expect(after.headers.server).toBe('Apache');
    expect(after.headers['x-frame-options']).toBe('DENY');
  });

  it('a broken custom directive is refused with Apache’s words; the previous configuration keeps serving', async () => {
    await site('keep.example.com');
    const pid = apache.masterPid();
    const before = await request(httpPort, 'keep.example.com');
    const file = t.deps.host.path('/etc/apache2/sites-available/mailroom-keep.example.com.conf');
    const text = readFileSync(file, 'utf8');
    const res = await update('keep.example.com', {
      customDirectives: '# ok\nRedirectMatch 301\nExpiresActive On',
    });
    expect(res.statusCode).toBe(422);
    const body = res.json();
    expect(body.details.field).toBe('customDirectives');
    expect(body.details.line).toBe(2);
    expect(body.message).toMatch(/^Custom Directives line 2: RedirectMatch/);
    expect(readFileSync(file, 'utf8')).toBe(text);
    const after = await request(httpPort, 'keep.example.com');
    expect(after.body).toBe(before.body);
    expect(apache.masterPid()).toBe(pid);
    expect((await call('GET', 'web/vhosts/keep.example.com')).json().customDirectives).toBe('');
  });

  it('refuses directives that reach outside the site, and line breaks in single-line fields (nothing written)', async () => {
    const inc = await update('keep.example.com', {
      customDirectives: 'Header set X-A 1\nInclude /etc/passwd',
    });
    expect(inc.statusCode).toBe(400);
    expect(inc.json().details[0]).toEqual({
      field: 'customDirectives',
      message: "Line 2: Include is not allowed in a virtual host's custom directives",
    });
    const piped = await update('keep.example.com', {
      customDirectives: 'ErrorDocument 404 "x"\nCustomLog "|/bin/sh -c id" common',
    });
    expect(piped.statusCode).toBe(400);
    const nl = await update('keep.example.com', { maintenanceMessage: 'a\nInclude /etc/passwd' });
    expect(nl.statusCode).toBe(400);
    expect(nl.json().details[0]).toEqual({
      field: 'maintenanceMessage',
      message: 'Maintenance Message must be a single line',
    });
  });

  it('a probe failure after the reload restores the last good files', async () => {
    const file = t.deps.host.path('/etc/apache2/sites-available/mailroom-keep.example.com.conf');
    const text = readFileSync(file, 'utf8');
    // Apache accepts it, but the host no longer answers as itself: the probe sees it.
    const res = await update('keep.example.com', {
      customDirectives: 'Header always unset X-Mailroom-Probe',
    });
    expect(res.statusCode).toBe(502);
    expect(res.json().message).toMatch(/^Saved, but not live: the reload failed/);
    expect(res.json().details.output).toMatch(
      /probe http:\/\/keep\.example\.com:\d+\/\.well-known\/mailroom-probe: answered 410 without being this host/,
    );
    expect(readFileSync(file, 'utf8')).toBe(text);
    expect((await request(httpPort, 'keep.example.com')).status).toBe(200);
    const outcome = (await call('GET', 'apply'))
      .json<{ target: string; state: string }[]>()
      .find((o) => o.target === 'web');
    expect(outcome?.state).toBe('failed');
  });
});
