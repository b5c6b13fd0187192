import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { SSL_SETTINGS_DEFAULTS } from '@mailroom/contract/ssl';
import { VirtualHostInput } from '@mailroom/contract/web/vhosts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEBIAN_APACHE_ENV } from '../../src/host/apache-host.ts';
import { Host } from '../../src/host/host.ts';
import { webTlsPolicySource } from '../../src/features/ssl/web-tls.service.ts';
import { renderWeb } from '../../src/features/web/stack/web-render.service.ts';
import { insertVhost } from '../../src/features/web/vhosts/vhost.repository.ts';
import { startTestApp, type TestContext } from '../harness.ts';
import { skipLoudly } from '../skip-loudly.ts';
import { ApacheProcess, freePort, openForApache, request } from './web-apache-helpers.ts';

const have = (cmd: string, args: string[]) => {
  try {
    execFileSync(cmd, args, { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
};
const haveApache = have('apache2', ['-v']);
const haveCurl = have('curl', ['--version']);
if (!haveApache)
  skipLoudly('apache2 is not installed (Debian package apache2): the SSL settings traffic tests are skipped');
if (!haveCurl)
  skipLoudly('curl is not installed (Debian package curl): the SSL settings traffic tests are skipped');

/** openssl req/x509 in a folder: a CA, a client certificate it signs, a server certificate. */
function openssl(dir: string, args: string[]): void {
  execFileSync('openssl', args, { cwd: dir, stdio: 'ignore' });
}

describe.skipIf(!haveApache || !haveCurl)('SSL settings in Apache, proved by traffic (issue 19)', () => {
  let t: TestContext;
  let apache: ApacheProcess;
  let httpPort: number;
  let httpsPort: number;
  let dir: string;
  const call = (method: 'GET' | 'POST', url: string, payload?: object) =>
    t.call({ method, url: `/api/${url}`, ...(payload ? { payload } : {}) });
  const root = () => t.deps.host.root;
  const serverConf = () =>
    readFileSync(path.join(root(), 'etc/apache2/conf-available/zz-mailroom.conf'), 'utf8');

  const saveSsl = async (patch: object) => {
    const cur = (await call('GET', 'ssl/settings')).json<{ settings: object; version: number }>();
    return call('POST', 'ssl/settings', { settings: { ...cur.settings, ...patch }, version: cur.version });
  };
  const saveSslOk = async (patch: object) => {
    const res = await saveSsl(patch);
    expect(res.statusCode, res.body).toBe(200);
    const web = (await call('GET', 'apply')).json<{ target: string; state: string }[]>();
    expect(
      web.find((o) => o.target === 'web')?.state,
      JSON.stringify(web.find((o) => o.target === 'web')),
    ).toBe('applied');
  };
  const refused = async (patch: object) => {
    const res = await saveSsl(patch);
    expect(res.statusCode, res.body).toBe(400);
    return res.json<{ details: { field: string; message: string }[] }>().details[0]!;
  };

  /** curl to 127.0.0.1:port with the name resolved there (SNI = the name), status and protocol. */
  const curl = (port: number, name: string | null, extra: string[] = []) => {
    const url = name ? `https://${name}:${port}/` : `https://127.0.0.1:${port}/`;
    const args = ['-sk', '-o', '/dev/null', '-w', '%{http_code} %{http_version}', '--max-time', '10'];
    if (name) args.push('--resolve', `${name}:${port}:127.0.0.1`);
    const r = spawnSync('curl', [...args, ...extra, url], { encoding: 'utf8' });
    const [code, version] = r.stdout.trim().split(' ');
    return { code: Number(code), version };
  };

  beforeAll(async () => {
    httpPort = await freePort();
    httpsPort = await freePort();
    t = await startTestApp('sqlite', {
      env: { MAILROOM_HTTP_PORT: String(httpPort), MAILROOM_HTTPS_PORT: String(httpsPort) },
    });
    openForApache(t.dataDir);
    dir = mkdtempSync(path.join(os.tmpdir(), 'mailroom-ssl-web-'));
    openForApache(dir);
    // A server certificate for the sites, a CA and a client certificate it signs.
    openssl(dir, [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-days',
      '5',
      '-subj',
      '/CN=tls.example.com',
      '-addext',
      'subjectAltName=DNS:tls.example.com,DNS:plain-tls.example.com',
      '-keyout',
      'site.key',
      '-out',
      'site.crt',
    ]);
    openssl(dir, [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-days',
      '5',
      '-subj',
      '/CN=Client CA',
      '-keyout',
      'ca.key',
      '-out',
      'ca.crt',
    ]);
    openssl(dir, [
      'req',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-subj',
      '/CN=alice',
      '-keyout',
      'client.key',
      '-out',
      'client.csr',
    ]);
    openssl(dir, [
      'x509',
      '-req',
      '-in',
      'client.csr',
      '-CA',
      'ca.crt',
      '-CAkey',
      'ca.key',
      '-CAcreateserial',
      '-days',
      '5',
      '-out',
      'client.crt',
    ]);
    const first = await call('POST', 'web/settings/reset');
    expect(first.statusCode, first.body).toBe(200);
    const up = await call('POST', 'ssl/certificates/upload', {
      domain: 'tls.example.com',
      certificateType: 'SAN',
      certificate: readFileSync(path.join(dir, 'site.crt'), 'utf8'),
      privateKey: readFileSync(path.join(dir, 'site.key'), 'utf8'),
      keySize: 2048,
    });
    expect(up.statusCode, up.body).toBe(200);
    const certId = up.json<{ id: number }>().id;
    for (const [domain, securityHeaders] of [
      ['tls.example.com', true],
      ['plain-tls.example.com', false],
    ] as const) {
      const res = await call('POST', 'web/vhosts/add', {
        domain,
        serverName: domain,
        documentRoot: `/var/www/${domain}`,
        sslEnabled: true,
        sslCertificateId: certId,
        enableSecurityHeaders: securityHeaders,
        enableCaching: false,
      });
      expect(res.statusCode, res.body).toBe(200);
      writeFileSync(t.deps.host.path(`/var/www/${domain}/index.html`), `This is ${domain}\n`);
    }
    apache = new ApacheProcess(
      path.join(root(), 'etc/apache2'),
      path.join(root(), 'run/apache2/mailroom-apache2.pid'),
    );
    await apache.start(httpPort);
  }, 90_000);
  afterAll(async () => {
    await apache?.stop();
    await t?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('Enable HTTP/2: curl --http2 speaks h2 over HTTPS; switched off, HTTP/1.1', async () => {
    expect(serverConf()).toContain('Protocols h2 http/1.1\n');
    expect(curl(httpsPort, 'tls.example.com', ['--http2'])).toEqual({ code: 200, version: '2' });
    await saveSslOk({ enableHttp2: false });
    expect(curl(httpsPort, 'tls.example.com', ['--http2'])).toEqual({ code: 200, version: '1.1' });
    await saveSslOk({ enableHttp2: true });
    expect(curl(httpsPort, 'tls.example.com', ['--http2']).version).toBe('2');
  });

  it('HSTS of the SSL settings: on every HTTPS site (the Server Configuration’s where security headers are on), preload rules, off', async () => {
    const plain = await request(httpsPort, 'plain-tls.example.com', { tls: true });
    expect(plain.status).toBe(200);
    expect(plain.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
    // Never over plain HTTP.
    expect(
      (await request(httpPort, 'plain-tls.example.com')).headers['strict-transport-security'],
    ).toBeUndefined();
    // The site with security headers sends the web server settings' HSTS (includeSubdomains off there).
    const secure = await request(httpsPort, 'tls.example.com', { tls: true });
    expect(secure.headers['strict-transport-security']).toBe('max-age=31536000');
    expect(await refused({ enableHstsPreload: true, hstsMaxAge: 600 })).toEqual({
      field: 'settings.enableHstsPreload',
      message:
        'HSTS Preload needs HSTS Include Subdomains and an HSTS Max Age of at least 31536000 (hstspreload.org)',
    });
    await saveSslOk({ enableHstsPreload: true, hstsMaxAge: 63072000 });
    expect(
      (await request(httpsPort, 'plain-tls.example.com', { tls: true })).headers['strict-transport-security'],
    ).toBe('max-age=63072000; includeSubDomains; preload');
    await saveSslOk({ enableHsts: false, enableHstsPreload: false });
    expect(
      (await request(httpsPort, 'plain-tls.example.com', { tls: true })).headers['strict-transport-security'],
    ).toBeUndefined();
    await saveSslOk({ enableHsts: true, hstsMaxAge: 31536000 });
  });

  it('Enable SNI: a client without SNI is refused (403, strict); off, it reaches the catch-all and is misdirected (421)', async () => {
    expect(serverConf()).toContain('SSLStrictSNIVHostCheck on\n');
    // curl sends no SNI to an address.
    expect(curl(httpsPort, null, ['-H', 'Host: tls.example.com']).code).toBe(403);
    expect(curl(httpsPort, 'tls.example.com').code).toBe(200);
    await saveSslOk({ enableSni: false });
    expect(serverConf()).toContain('SSLStrictSNIVHostCheck off\n');
    expect(curl(httpsPort, null, ['-H', 'Host: tls.example.com']).code).toBe(421);
    expect(curl(httpsPort, 'tls.example.com').code).toBe(200);
    await saveSslOk({ enableSni: true });
  });

  it('client certificates: without one a request is refused (403), with one the CA signed it is served; bad input is refused at the field', async () => {
    expect(await refused({ enableSslClientVerification: true })).toEqual({
      field: 'settings.enableSslClientVerification',
      message: 'SSL Client Verification needs Enable SSL Client Certificates',
    });
    expect(await refused({ enableSslClientCertificates: true, enableSslClientVerification: true })).toEqual({
      field: 'settings.sslClientCertificatePath',
      message: 'SSL Client Certificate Path is required to verify client certificates',
    });
    const missing = path.join(dir, 'nope.crt');
    expect(
      await refused({
        enableSslClientCertificates: true,
        enableSslClientVerification: true,
        sslClientCertificatePath: missing,
      }),
    ).toEqual({
      field: 'settings.sslClientCertificatePath',
      message: `No readable PEM certificate at ${missing}`,
    });
    await saveSslOk({
      enableSslClientCertificates: true,
      enableSslClientVerification: true,
      sslClientCertificatePath: path.join(dir, 'ca.crt'),
      sslClientVerificationDepth: 2,
    });
    expect(serverConf()).toContain('SSLVerifyDepth 2\n');
    expect(curl(httpsPort, 'tls.example.com').code).toBe(403);
    const withCert = ['--cert', path.join(dir, 'client.crt'), '--key', path.join(dir, 'client.key')];
    expect(curl(httpsPort, 'tls.example.com', withCert).code).toBe(200);
    // A certificate the CA did not sign (the site's own, self-signed) is refused too.
    expect(
      curl(httpsPort, 'tls.example.com', [
        '--cert',
        path.join(dir, 'site.crt'),
        '--key',
        path.join(dir, 'site.key'),
      ]).code,
    ).not.toBe(200);
    // Asked for but not verified: served without one.
    await saveSslOk({ enableSslClientVerification: false });
    expect(serverConf()).toContain('SSLVerifyClient optional_no_ca\n');
    expect(curl(httpsPort, 'tls.example.com').code).toBe(200);
    await saveSslOk({ enableSslClientCertificates: false });
    expect(serverConf()).not.toContain('SSLVerifyClient');
  });

  it('SSL Handshake Timeout: a client that never starts its handshake is dropped after it (RequestReadTimeout)', async () => {
    await saveSslOk({ sslHandshakeTimeout: 1, sslReadTimeout: 45 });
    expect(serverConf()).toContain('RequestReadTimeout handshake=1 header=45 body=45\n');
    const closedAfter = await new Promise<number>((resolve, reject) => {
      const start = Date.now();
      const s = net.connect(httpsPort, '127.0.0.1', () => {
        // The first bytes of a TLS record, then nothing (the kernel hands Apache a connection once data came).
        s.write(Buffer.from([0x16, 0x03, 0x01]));
      });
      s.on('error', reject);
      s.on('close', () => resolve(Date.now() - start));
      setTimeout(() => {
        s.destroy();
        resolve(Infinity);
      }, 8000);
    });
    expect(closedAfter).toBeLessThan(4000);
    await saveSslOk({ sslHandshakeTimeout: 30, sslReadTimeout: 60 });
  });

  it('Server Port: a host with its SSL Port left empty serves HTTPS there; buffering and mod_ssl’s log level render', async () => {
    const port = await freePort();
    const upd = await call('GET', 'web/vhosts/plain-tls.example.com');
    const cur = upd.json<Record<string, unknown>>();
    const body = Object.fromEntries(
      Object.entries({ ...cur, sslPort: '' }).filter(
        ([k]) => !['id', 'lastModified', 'traffic', 'responseTime', 'siteUser', 'live'].includes(k),
      ),
    );
    const saved = await call('POST', 'web/vhosts/update/plain-tls.example.com', body);
    expect(saved.statusCode, saved.body).toBe(200);
    // 443 is served on MAILROOM_HTTPS_PORT in local mode.
    expect(curl(httpsPort, 'plain-tls.example.com').code).toBe(200);
    await saveSslOk({ serverPort: port });
    expect(readFileSync(path.join(root(), 'etc/apache2/ports.conf'), 'utf8')).toContain(
      `Listen 127.0.0.1:${port} https\n`,
    );
    expect(curl(port, 'plain-tls.example.com').code).toBe(200);
    // The host with its own SSL Port (443) stays where it was.
    expect(curl(httpsPort, 'tls.example.com').code).toBe(200);
    const conf = serverConf();
    expect(conf).toContain('  SSLRenegBufferSize 8192\n');
    expect(conf).toContain('LogLevel ssl:info\n');
    await saveSslOk({ enableSslBuffering: false, enableSslLogging: false, serverPort: 443 });
    expect(serverConf()).not.toContain('SSLRenegBufferSize');
    expect(serverConf()).toContain('LogLevel ssl:emerg\n');
    expect(curl(httpsPort, 'plain-tls.example.com').code).toBe(200);
  });

  it('SSL Session Resumption: a reconnecting client resumes its session; switched off, never', async () => {
    const reused = () => {
      const r = spawnSync(
        'openssl',
        [
          's_client',
          '-connect',
          `127.0.0.1:${httpsPort}`,
          '-servername',
          'tls.example.com',
          '-tls1_2',
          '-reconnect',
        ],
        { input: '', encoding: 'utf8', timeout: 20_000 },
      );
      return (r.stdout.match(/^Reused, /gm) ?? []).length;
    };
    expect(reused()).toBeGreaterThan(0);
    await saveSslOk({ enableSslSessionResumption: false });
    expect(serverConf()).toContain('SSLSessionCacheTimeout 0\nSSLSessionTickets off\n');
    expect(reused()).toBe(0);
    await saveSslOk({ enableSslSessionResumption: true });
    expect(reused()).toBeGreaterThan(0);

    // Session Cache off (tickets off too, so only the cache could resume): Apache keeps serving
    // through the graceful restart (with `SSLSessionCache none` it died there), and nothing resumes.
    await saveSslOk({ enableSslSessionCache: false, enableSslSessionTickets: false });
    expect(serverConf()).not.toContain('SSLSessionCache none');
    expect(curl(httpsPort, 'tls.example.com').code).toBe(200);
    expect(reused()).toBe(0);
    await saveSslOk({ enableSslSessionCache: true, enableSslSessionTickets: true });
    expect(curl(httpsPort, 'tls.example.com').code).toBe(200);
  });

  it('refuses what Apache cannot honour, with the reason at the field: HTTP/3, SSL 2/3', async () => {
    expect(await refused({ enableHttp3: true })).toEqual({
      field: 'settings.enableHttp3',
      message: 'Apache has no HTTP/3 (QUIC): it cannot be switched on',
    });
    expect((await refused({ serverProtocol: 'both' })).field).toBe('settings.serverProtocol');
  });
});

describe.skipIf(!haveApache)(
  'system-mode render with every SSL setting Apache honours, on a copy of Debian’s /etc/apache2',
  () => {
    let t: TestContext;
    let root: string;
    beforeAll(async () => {
      t = await startTestApp('sqlite');
      root = mkdtempSync(path.join(os.tmpdir(), 'mailroom-apache-ssl-system-'));
      cpSync('/etc/apache2', path.join(root, 'etc/apache2'), { recursive: true, verbatimSymlinks: true });
      for (const f of ['qos.load', 'qos.conf'])
        rmSync(path.join(root, 'etc/apache2/mods-enabled', f), { force: true });
    });
    afterAll(async () => {
      rmSync(root, { recursive: true, force: true });
      await t.close();
    });

    it('apache2 -t accepts HTTP/2, HSTS, strict SNI, timeouts, buffering, log level and verified client certificates', async () => {
      const host = new Host(root, false);
      const certDir = path.join(root, 'certs');
      mkdirSync(certDir);
      openssl(certDir, [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-days',
        '2',
        '-subj',
        '/CN=secure.example.com',
        '-keyout',
        'k.pem',
        '-out',
        'c.pem',
      ]);
      const db = t.deps.database.db;
      const cur = (await t.call({ method: 'GET', url: '/api/ssl/settings' })).json<{ version: number }>();
      const res = await t.call({
        method: 'POST',
        url: '/api/ssl/settings',
        payload: {
          version: cur.version,
          settings: {
            ...SSL_SETTINGS_DEFAULTS,
            enableHstsPreload: true,
            enableSslClientCertificates: true,
            enableSslClientVerification: true,
            sslClientCertificatePath: path.join(certDir, 'c.pem'),
          },
        },
      });
      expect(res.statusCode, res.body).toBe(200);
      await insertVhost(
        db,
        VirtualHostInput.parse({
          domain: 'secure.example.com',
          serverName: 'secure.example.com',
          documentRoot: '/var/www/secure',
          sslEnabled: true,
          sslPort: '',
          sslCertificate: path.join(certDir, 'c.pem'),
          sslPrivateKey: path.join(certDir, 'k.pem'),
        }),
      );
      const mode = { system: true, httpPort: 80, httpsPort: 443, hostPath: (p: string) => host.path(p) };
      const render = await renderWeb(db, {
        mode,
        tls: null,
        tlsPolicy: webTlsPolicySource(),
        reloadCommand: '/usr/bin/systemctl reload apache2.service',
        defaultTls: false,
      });
      for (const f of render.files) {
        const p = host.path(f.path);
        mkdirSync(path.dirname(p), { recursive: true });
        writeFileSync(p, f.content);
      }
      for (const d of [
        '/var/log/apache2',
        '/var/lib/mailroom/acme-webroot/.well-known/acme-challenge',
        '/var/lib/mailroom/modsecurity',
        '/var/www/secure',
      ])
        mkdirSync(host.path(d), { recursive: true });
      const conf = readFileSync(host.path('/etc/apache2/conf-available/zz-mailroom.conf'), 'utf8');
      for (const line of [
        'Protocols h2 http/1.1',
        `Header always setifempty Strict-Transport-Security "max-age=31536000; includeSubDomains; preload" "expr=-n reqenv('mailroom_https')"`,
        'SSLStrictSNIVHostCheck on',
        'RequestReadTimeout handshake=30 header=60 body=60',
        '  SSLRenegBufferSize 8192',
        'LogLevel ssl:info',
        'SSLVerifyClient optional',
        'SSLVerifyDepth 3',
      ])
        expect(conf).toContain(`${line}\n`);
      // The Server Port (443) is the host's HTTPS port: its SSL Port was left empty.
      expect(readFileSync(host.path('/etc/apache2/ports.conf'), 'utf8')).toMatch(/^Listen 443 https$/m);
      const d = host.path('/etc/apache2');
      const out = execFileSync('apache2', ['-t', '-d', d, '-f', path.join(d, 'apache2.conf')], {
        env: { ...process.env, ...DEBIAN_APACHE_ENV },
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      expect(out).toBe('');
    });
  },
);
