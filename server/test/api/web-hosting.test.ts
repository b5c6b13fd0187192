import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { makeCert } from '../ssl-certs.ts';
import { WEB_SETTINGS_DEFAULTS } from '@mailroom/contract/web/settings';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialects, startTestApp, type TestContext } from '../harness.ts';

const DA = { email: 'webda@example.com', password: 'domain-admin-password' };

describe.each(dialects())('web hosting API on %s', (dialect) => {
  let t: TestContext;
  let daToken = '';
  const call = (method: 'GET' | 'POST', url: string, payload?: object) =>
    t.call({
      method,
      url: `/api/${url}`,
      ...(payload ? { payload } : method === 'POST' ? { payload: {} } : {}),
    });
  const asDa = (method: 'GET' | 'POST', url: string, payload?: object) =>
    t.app.inject({
      method,
      url: `/api/${url}`,
      headers: { authorization: `Bearer ${daToken}` },
      ...(payload ? { payload } : method === 'POST' ? { payload: {} } : {}),
    });
  const add = (domain: string, extra: object = {}) =>
    call('POST', 'web/vhosts/add', {
      domain,
      serverName: domain,
      documentRoot: `/var/www/${domain}`,
      ...extra,
    });
  const firstDetail = (res: {
    json: () => { details: { field: string; message: string }[] };
  }): { field: string; message: string } => res.json().details[0] ?? { field: '', message: '' };

  beforeAll(async () => {
    t = await startTestApp(dialect);
    const created = await call('POST', 'accounts', {
      ...DA,
      role: 'domain-admin',
      domains: ['own.example.com'],
    });
    expect(created.statusCode, created.body).toBe(200);
    const login = await t.app.inject({ method: 'POST', url: '/auth/login', payload: DA });
    daToken = login.json<{ api_key: string }>().api_key;
  });
  afterAll(async () => t.close());

  it('web/settings starts from the spec defaults', async () => {
    const res = await call('GET', 'web/settings');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual(WEB_SETTINGS_DEFAULTS);
    expect(res.json()).toMatchObject({
      serverName: 'web-server',
      serverRoot: '/var/www',
      listenPort: 80,
      maxRequestWorkers: 150,
      maxConnectionsPerChild: 1000,
      keepAliveTimeout: 5,
      maxKeepAliveRequests: 100,
      timeout: 300,
      serverTokens: 'Minimal',
      serverSignature: 'Off',
      hstsMaxAge: 31536000,
      cspPolicy: "default-src 'self'",
      xFrameOptions: 'SAMEORIGIN',
      referrerPolicy: 'strict-origin-when-cross-origin',
      logRotateSize: '100M',
      logRotateCount: 10,
      logRotateFrequency: 'daily',
      phpVersion: '8.3',
      phpHandler: 'php-fpm',
      phpSessionSavePath: '/var/lib/php/sessions',
      rateLimitBurst: 20,
      ipRateLimitRequests: 50,
    });
  });

  it.each([
    ['serverName', '', 'Server Name is required'],
    ['serverAdmin', 'nope', 'Please enter a valid email address'],
    ['serverRoot', '', 'Server Root is required'],
    ['listenPort', 0, 'Listen Port must be at least 1'],
    ['listenPort', 65536, 'Listen Port must be at most 65535'],
    ['maxRequestWorkers', 0, 'Max Request Workers must be at least 1'],
    ['timeout', 0, 'Timeout must be at least 1'],
    ['compressionLevel', 10, 'Compression Level must be at most 9'],
    ['deflateCompressionLevel', 0, 'Deflate Compression Level must be at least 1'],
    ['brotliCompressionLevel', 10, 'Brotli Compression Level must be at most 9'],
    ['phpSessionCookieLifetime', -1, 'PHP Session Cookie Lifetime must be at least 0'],
    ['hstsMaxAge', 0, 'HSTS Max Age must be at least 1'],
    ['logRotateCount', 0, 'Log Rotate Count must be at least 1'],
    ['serverTokens', 'Loud', 'Server Tokens is required'],
    ['logLevel', 'chatty', 'Log Level is required'],
    ['logRotateSize', 'huge', 'Log Rotate Size format is invalid'],
    ['cspPolicy', "default-src 'self'\nInclude /etc/passwd", 'CSP Policy must be a single line'],
  ])('POST web/settings refuses %s = %j: %s', async (field, value, message) => {
    const conf = t.deps.host.path('/etc/apache2/conf-available/zz-mailroom.conf');
    const before = existsSync(conf) ? readFileSync(conf, 'utf8') : null;
    const res = await call('POST', 'web/settings', { ...WEB_SETTINGS_DEFAULTS, [field]: value });
    expect(res.statusCode).toBe(400);
    expect(firstDetail(res)).toEqual({ field, message });
    expect(existsSync(conf) ? readFileSync(conf, 'utf8') : null).toBe(before);
  });

  it('HSTS preload needs subdomains and a year; ALLOW-FROM needs its origin and becomes CSP frame-ancestors', async () => {
    const preload = await call('POST', 'web/settings', { ...WEB_SETTINGS_DEFAULTS, hstsPreload: true });
    expect(firstDetail(preload).field).toBe('hstsPreload');
    const allow = await call('POST', 'web/settings', {
      ...WEB_SETTINGS_DEFAULTS,
      xFrameOptions: 'ALLOW-FROM',
    });
    expect(firstDetail(allow)).toEqual({
      field: 'xFrameOptionsAllowFrom',
      message: 'X-Frame-Options Allow From is required for ALLOW-FROM',
    });
    const ok = await call('POST', 'web/settings', {
      ...WEB_SETTINGS_DEFAULTS,
      xFrameOptions: 'ALLOW-FROM',
      xFrameOptionsAllowFrom: 'https://portal.example.com',
      hstsPreload: true,
      hstsIncludeSubdomains: true,
      maxRequestWorkers: 600,
      serverSignature: 'Email',
    });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toMatchObject({ success: true, message: 'Web server settings saved successfully!' });
    const conf = readFileSync(t.deps.host.path('/etc/apache2/conf-available/zz-mailroom.conf'), 'utf8');
    expect(conf).toContain(
      'Header always set Content-Security-Policy "frame-ancestors https://portal.example.com" env=mailroom_secure',
    );
    expect(conf).not.toContain('X-Frame-Options');
    expect(conf).toContain('max-age=31536000; includeSubDomains; preload');
    expect(conf).toMatch(/ServerLimit 24\n\s+ThreadsPerChild 25\n\s+MaxRequestWorkers 600/);
    expect(conf).toContain('ServerSignature EMail');
    const rot = readFileSync(t.deps.host.path('/etc/logrotate.d/mailroom-apache2'), 'utf8');
    expect(rot).toContain('maxsize 100M');
    expect(rot).toContain('rotate 10');
  });

  it('settings the installed Apache cannot honour are refused (PHP handler), and Reset to Defaults restores them', async () => {
    const res = await call('POST', 'web/settings', { ...WEB_SETTINGS_DEFAULTS, phpHandler: 'mod_php' });
    expect(res.statusCode).toBe(400);
    expect(firstDetail(res).field).toBe('phpHandler');
    const reset = await call('POST', 'web/settings/reset');
    expect(reset.statusCode, reset.body).toBe(200);
    expect(reset.json().settings).toEqual(WEB_SETTINGS_DEFAULTS);
    expect((await call('GET', 'web/settings')).json()).toEqual(WEB_SETTINGS_DEFAULTS);
  });

  it.each([
    [{ domain: 'localhost' }, 'domain', 'Domain format is invalid'],
    [{ domain: '' }, 'domain', 'Domain is required'],
    [{ domain: 'a.example.com\r\nInclude x' }, 'domain', 'Domain must be a single line'],
    [{ documentRoot: '' }, 'documentRoot', 'Document Root is required'],
    [{ documentRoot: 'relative/path' }, 'documentRoot', 'Document Root format is invalid'],
    [{ serverName: '' }, 'serverName', 'Server Name is required'],
    [{ port: 0 }, 'port', 'Port must be at least 1'],
    [{ port: 65536 }, 'port', 'Port must be at most 65535'],
    [{ sslPort: 70000 }, 'sslPort', 'SSL Port must be at most 65535'],
    [{ cacheExpiry: 0 }, 'cacheExpiry', 'Cache Expiry must be at least 1'],
    [{ phpMaxExecutionTime: 0 }, 'phpMaxExecutionTime', 'PHP Max Execution Time must be at least 1'],
    [{ rateLimitRequests: 0 }, 'rateLimitRequests', 'Rate Limit Requests must be at least 1'],
    [{ rateLimitWindow: 0 }, 'rateLimitWindow', 'Rate Limit Window must be at least 1'],
    [{ phpMemoryLimit: 'lots' }, 'phpMemoryLimit', 'PHP Memory Limit format is invalid'],
    [{ allowedIps: ['10.0.0.300'] }, 'allowedIps', 'Allowed IPs format is invalid: 10.0.0.300'],
    [{ ipAddress: 'any' }, 'ipAddress', 'IP Address format is invalid'],
    [{ maintenanceMessage: 'a\nb' }, 'maintenanceMessage', 'Maintenance Message must be a single line'],
    [{ redirectHttpToHttps: true }, 'redirectHttpToHttps', 'Redirect HTTP to HTTPS needs SSL enabled'],
    [
      { sslEnabled: true },
      'sslCertificateId',
      'Choose a certificate from the SSL area, or give the certificate and key paths',
    ],
    [
      { documentRoot: '/etc' },
      'documentRoot',
      'Document Root must be inside /var/www or  (symbolic links resolved)',
    ],
    [
      { customDirectives: 'LoadModule x /tmp/x.so' },
      'customDirectives',
      "Line 1: LoadModule is not allowed in a virtual host's custom directives",
    ],
    [
      { customDirectives: '<VirtualHost *:80>\n</VirtualHost>' },
      'customDirectives',
      "Line 1: <VirtualHost> is not allowed in a virtual host's custom directives",
    ],
    [
      { customDirectives: 'SuexecUserGroup root root' },
      'customDirectives',
      "Line 1: Suexec is not allowed in a virtual host's custom directives",
    ],
  ])('POST web/vhosts/add refuses %j', async (patch, field, message) => {
    const res = await add('bad.example.com', patch);
    expect(res.statusCode).toBe(400);
    expect(firstDetail(res)).toEqual({ field, message: message.replace(' or  (', ' (') });
    expect((await call('GET', 'web/vhosts/bad.example.com')).statusCode).toBe(404);
    expect(existsSync(t.deps.host.path('/etc/apache2/sites-available/mailroom-bad.example.com.conf'))).toBe(
      false,
    );
  });

  it('stores IDN names as punycode, creates the document root, and refuses a name another host serves', async () => {
    const res = await add('bücher.example', {
      serverName: 'bücher.example',
      documentRoot: '/var/www/buecher',
      serverAlias: ['www.bücher.example'],
    });
    expect(res.statusCode, res.body).toBe(200);
    const v = res.json().vhost;
    expect(v).toMatchObject({
      domain: 'xn--bcher-kva.example',
      serverName: 'xn--bcher-kva.example',
      serverAlias: ['www.xn--bcher-kva.example'],
      status: 'active',
      ipAddress: '*',
      port: 80,
      sslPort: 443,
      enableGzip: true,
      enableCaching: true,
      cacheExpiry: 3600,
      enablePhp: true,
      phpVersion: '8.3',
      phpMemoryLimit: '128M',
      phpMaxExecutionTime: 30,
      phpUploadMaxFilesize: '2M',
      phpPostMaxSize: '8M',
      enableSecurityHeaders: true,
      rateLimitRequests: 100,
      rateLimitWindow: 60,
      backupFrequency: 'weekly',
    });
    expect(existsSync(t.deps.host.path('/var/www/buecher/index.html'))).toBe(true);
    const clash = await add('other.example.org', { serverAlias: ['www.bücher.example'] });
    expect(clash.statusCode).toBe(409);
    expect(clash.json().message).toBe(
      'www.xn--bcher-kva.example is already served by the virtual host xn--bcher-kva.example',
    );
    const dup = await add('bücher.example', { documentRoot: '/var/www/b2' });
    expect(dup.statusCode).toBe(409);
    expect(dup.json().message).toBe('A virtual host xn--bcher-kva.example already exists');
  });

  it('lists by page with search, status filter, keyset cursors and X-Total-Count', async () => {
    for (const d of ['a1.example.net', 'a2.example.net', 'a3.example.net', 'own.example.com'])
      expect((await add(d)).statusCode).toBe(200);
    expect(
      (await call('POST', 'web/vhosts/status/a2.example.net', { status: 'maintenance' })).statusCode,
    ).toBe(200);
    const all = await call('GET', 'web/vhosts?limit=2');
    expect(all.headers['x-total-count']).toBe('5');
    expect(all.json().map((v: { domain: string }) => v.domain)).toEqual(['a1.example.net', 'a2.example.net']);
    const next = await call('GET', `web/vhosts?limit=2&cursor=${String(all.headers['x-next-cursor'])}`);
    expect(next.json().map((v: { domain: string }) => v.domain)).toEqual([
      'a3.example.net',
      'own.example.com',
    ]);
    const q = await call('GET', 'web/vhosts?q=A3.EXAMPLE');
    expect(q.json().map((v: { domain: string }) => v.domain)).toEqual(['a3.example.net']);
    const byRoot = await call('GET', 'web/vhosts?q=/var/www/buecher');
    expect(byRoot.json().map((v: { domain: string }) => v.domain)).toEqual(['xn--bcher-kva.example']);
    const maint = await call('GET', 'web/vhosts?status=maintenance');
    expect(maint.headers['x-total-count']).toBe('1');
    expect(maint.json()[0]).toMatchObject({
      domain: 'a2.example.net',
      status: 'maintenance',
      enableMaintenanceMode: true,
    });
    expect((await call('GET', 'web/vhosts?status=paused')).statusCode).toBe(400);
    expect((await call('GET', 'web/vhosts?sort=-domain&limit=1')).json()[0].domain).toBe(
      'xn--bcher-kva.example',
    );
  });

  it('get, update (one file rewritten), status and delete with or without the files', async () => {
    expect((await call('GET', 'web/vhosts/none.example.com')).statusCode).toBe(404);
    const cur = (await call('GET', 'web/vhosts/a1.example.net')).json();
    const other = readFileSync(
      t.deps.host.path('/etc/apache2/sites-available/mailroom-a3.example.net.conf'),
      'utf8',
    );
    const { id: _id, lastModified: _l, traffic: _t, responseTime: _r, siteUser: _s, live: _v, ...body } = cur;
    const up = await call('POST', 'web/vhosts/update/a1.example.net', {
      ...body,
      enableGzip: false,
      cacheExpiry: 60,
    });
    expect(up.statusCode, up.body).toBe(200);
    const text = readFileSync(
      t.deps.host.path('/etc/apache2/sites-available/mailroom-a1.example.net.conf'),
      'utf8',
    );
    expect(text).not.toContain('DEFLATE');
    expect(text).toContain('ExpiresDefault "access plus 60 seconds"');
    expect(
      readFileSync(t.deps.host.path('/etc/apache2/sites-available/mailroom-a3.example.net.conf'), 'utf8'),
    ).toBe(other);
    const outcome = (await call('GET', 'apply')).json().find((o: { target: string }) => o.target === 'web');
    expect(outcome.changed.written).toEqual(['/etc/apache2/sites-available/mailroom-a1.example.net.conf']);
    const st = await call('POST', 'web/vhosts/status/a1.example.net', { status: 'inactive' });
    expect(st.json().vhost.status).toBe('inactive');
    const keep = await call('POST', 'web/vhosts/remove/a1.example.net', {});
    expect(keep.json()).toEqual({
      success: true,
      filesRemoved: false,
      documentRoot: '/var/www/a1.example.net',
      // As root the site's Unix user goes with it (kept files given to root first); otherwise there is none.
      siteUser:
        process.getuid?.() === 0
          ? expect.stringMatching(/^userdel mr-site-\d+: removed; \d+ kept files and folders given to root$/)
          : null,
    });
    expect(existsSync(t.deps.host.path('/var/www/a1.example.net'))).toBe(true);
    expect(existsSync(t.deps.host.path('/etc/apache2/sites-enabled/mailroom-a1.example.net.conf'))).toBe(
      false,
    );
    const gone = await call('POST', 'web/vhosts/remove/a3.example.net', { keepFiles: false });
    expect(gone.json().filesRemoved).toBe(true);
    expect(existsSync(t.deps.host.path('/var/www/a3.example.net'))).toBe(false);
  });

  it('catalogue calls web/domains, web/domains/add {domain}, web/domains/remove/{domain}', async () => {
    const added = await call('POST', 'web/domains/add', { domain: 'hosted.example.com' });
    expect(added.statusCode, added.body).toBe(200);
    const list = (await call('GET', 'web/domains')).json();
    expect(list).toContainEqual({
      domain: 'hosted.example.com',
      status: 'active',
      sslEnabled: false,
      documentRoot: '/var/www/hosted.example.com',
    });
    expect((await call('POST', 'web/domains/add', { domain: 'bare' })).statusCode).toBe(400);
    expect((await call('POST', 'web/domains/remove/hosted.example.com')).statusCode).toBe(200);
    expect((await call('GET', 'web/domains')).json().map((d: { domain: string }) => d.domain)).not.toContain(
      'hosted.example.com',
    );
    expect(existsSync(t.deps.host.path('/var/www/hosted.example.com'))).toBe(true);
  });

  it('the dashboard and capabilities are real: counts, Apache’s state, the database, activity from the audit log', async () => {
    const d = (await call('GET', 'web/dashboard')).json();
    expect(d.stats).toMatchObject({ totalVirtualHosts: 3, activeVirtualHosts: 2, sslEnabledDomains: 0 });
    expect(d.status.map((s: { name: string }) => s.name)).toEqual([
      'Web Server',
      'PHP',
      'Database',
      'SSL/TLS',
    ]);
    expect(d.status[0].state).not.toBe('running');
    expect(d.status[2]).toMatchObject({ state: 'running' });
    expect(d.activity[0].description).toMatch(/^Domain no longer hosted: hosted\.example\.com|Virtual host/);
    const c = (await call('GET', 'web/capabilities')).json();
    expect(c.rateLimitModule.name).toBe('security2');
    expect(c.mode).toBe('local');
    expect(c.phpVersions.find((p: { version: string }) => p.version === '7.4').installed).toBe(false);
    // PHP runs through the sites' pools: the fields are enabled when a PHP-FPM is installed.
    const anyPhp = c.phpVersions.some((p: { installed: boolean }) => p.installed);
    expect(c.vhostFields.enablePhp).toBeUndefined();
    if (anyPhp) expect(c.vhostFields.phpVersion).toBeUndefined();
    else expect(c.vhostFields.phpVersion).toMatch(/No PHP-FPM is installed/);
    expect(d.status[1].state).toBe(anyPhp ? 'unmanaged' : 'not-installed');
  });

  it('domain administrators see and change only their domains’ virtual hosts', async () => {
    const list = await asDa('GET', 'web/vhosts');
    expect(list.statusCode).toBe(200);
    expect(list.json().map((v: { domain: string }) => v.domain)).toEqual(['own.example.com']);
    expect((await asDa('GET', 'web/vhosts/a2.example.net')).statusCode).toBe(404);
    expect((await asDa('POST', 'web/vhosts/status/a2.example.net', { status: 'inactive' })).statusCode).toBe(
      404,
    );
    expect((await asDa('POST', 'web/vhosts/status/own.example.com', { status: 'inactive' })).statusCode).toBe(
      200,
    );
    const foreign = await asDa('POST', 'web/vhosts/add', {
      domain: 'x.example.org',
      serverName: 'x.example.org',
      documentRoot: '/var/www/x',
    });
    expect(foreign.statusCode).toBe(403);
    expect((await asDa('GET', 'web/settings')).statusCode).toBe(403);
    expect((await asDa('GET', 'web/dashboard')).statusCode).toBe(403);
    expect((await asDa('GET', 'web/domains')).json().map((d: { domain: string }) => d.domain)).toEqual([
      'own.example.com',
    ]);
  });

  it('a certificate given by path is checked like a picked one: names covered, key matching, readable', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'mailroom-certpath-'));
    try {
      const good = await makeCert({ cn: 'bypath.example.com', names: ['bypath.example.com'] });
      const other = await makeCert({ cn: 'other.example.org', names: ['other.example.org'] });
      const file = (name: string, text: string) => {
        writeFileSync(path.join(dir, name), text, { mode: 0o600 });
        return path.join(dir, name);
      };
      const cert = file('good.crt', good.pem);
      const key = file('good.key', good.keyPem);
      const otherCert = file('other.crt', other.pem);
      const otherKey = file('other.key', other.keyPem);
      const ssl = (c: string, k: string) => ({
        sslEnabled: true,
        sslCertificateId: null,
        sslCertificate: c,
        sslPrivateKey: k,
      });
      let res = await add('bypath.example.com', ssl(otherCert, otherKey));
      expect(res.statusCode, res.body).toBe(400);
      expect(firstDetail(res)).toEqual({
        field: 'sslCertificate',
        message: 'The certificate does not cover bypath.example.com',
      });
      res = await add('bypath.example.com', ssl(cert, otherKey));
      expect(res.statusCode, res.body).toBe(400);
      expect(firstDetail(res)).toEqual({
        field: 'sslCertificate',
        message: 'The certificate does not match its private key',
      });
      res = await add('bypath.example.com', ssl(path.join(dir, 'missing.crt'), key));
      expect(res.statusCode, res.body).toBe(400);
      expect(firstDetail(res)).toEqual({
        field: 'sslCertificate',
        message: `No readable PEM certificate or key at ${path.join(dir, 'missing.crt')}`,
      });
      expect(
        existsSync(t.deps.host.path('/etc/apache2/sites-available/mailroom-bypath.example.com.conf')),
      ).toBe(false);
      res = await add('bypath.example.com', ssl(cert, key));
      expect(res.statusCode, res.body).toBe(200);
      expect(
        (await call('POST', 'web/vhosts/remove/bypath.example.com', { keepFiles: false })).statusCode,
      ).toBe(200);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('the server-wide PHP limits are a new host’s values and every PHP host’s ceiling; lowering one below a host is refused naming it', async () => {
    const s = (await call('GET', 'web/settings')).json<Record<string, unknown>>();
    const limits = {
      phpMemoryLimit: '256M',
      phpMaxExecutionTime: 60,
      phpUploadMaxFilesize: '16M',
      phpPostMaxSize: '32M',
    };
    let res = await call('POST', 'web/settings', { ...s, ...limits });
    expect(res.statusCode, res.body).toBe(200);

    // Left out: the server-wide values (not the spec's 128M/30/2M/8M).
    res = await add('limits-a.example.com');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().vhost).toMatchObject(limits);
    // The catalogue's web/domains/add too.
    expect((await call('POST', 'web/domains/add', { domain: 'limits-b.example.com' })).statusCode).toBe(200);
    expect((await call('GET', 'web/vhosts/limits-b.example.com')).json()).toMatchObject(limits);

    // Above the ceiling: refused at the field, naming the server's value; units compared as PHP reads them.
    for (const [extra, field, message] of [
      [
        { phpMemoryLimit: '1G' },
        'phpMemoryLimit',
        'PHP Memory Limit must be at most 256M, the server-wide PHP Memory Limit (Server Configuration, PHP)',
      ],
      [
        { phpMemoryLimit: '262145K' },
        'phpMemoryLimit',
        'PHP Memory Limit must be at most 256M, the server-wide PHP Memory Limit (Server Configuration, PHP)',
      ],
      [
        { phpMaxExecutionTime: 61 },
        'phpMaxExecutionTime',
        'PHP Max Execution Time must be at most 60 s, the server-wide PHP Max Execution Time (Server Configuration, PHP)',
      ],
      [
        { phpUploadMaxFilesize: '17M' },
        'phpUploadMaxFilesize',
        'PHP Upload Max Filesize must be at most 16M, the server-wide PHP Upload Max Filesize (Server Configuration, PHP)',
      ],
      [
        { phpPostMaxSize: '33554433' },
        'phpPostMaxSize',
        'PHP Post Max Size must be at most 32M, the server-wide PHP Post Max Size (Server Configuration, PHP)',
      ],
    ] as const) {
      res = await add('limits-c.example.com', extra);
      expect(res.statusCode, res.body).toBe(400);
      expect(firstDetail(res)).toEqual({ field, message });
    }
    expect(existsSync(t.deps.host.path('/var/www/limits-c.example.com'))).toBe(false);
    // Equal to the ceiling (in other units) is fine; without PHP the limits apply to nothing.
    res = await add('limits-c.example.com', { phpMemoryLimit: '262144K', phpPostMaxSize: '33554432' });
    expect(res.statusCode, res.body).toBe(200);
    res = await add('limits-d.example.com', { enablePhp: false, phpMemoryLimit: '1G' });
    expect(res.statusCode, res.body).toBe(200);

    // An update that leaves the limits out keeps the host's own; one above the ceiling is refused.
    const a = (await call('GET', 'web/vhosts/limits-a.example.com')).json<Record<string, unknown>>();
    const { id, lastModified, traffic, responseTime, siteUser, live, ...body } = a;
    void [id, lastModified, traffic, responseTime, siteUser, live];
    const {
      phpMemoryLimit: _m,
      phpMaxExecutionTime: _e,
      phpUploadMaxFilesize: _u,
      phpPostMaxSize: _p,
      ...withoutLimits
    } = body;
    void [_m, _e, _u, _p];
    res = await call('POST', 'web/vhosts/update/limits-a.example.com', {
      ...withoutLimits,
      phpMemoryLimit: '64M',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().vhost).toMatchObject({ ...limits, phpMemoryLimit: '64M' });
    res = await call('POST', 'web/vhosts/update/limits-a.example.com', { ...body, phpPostMaxSize: '64M' });
    expect(res.statusCode, res.body).toBe(400);
    expect(firstDetail(res).field).toBe('phpPostMaxSize');
    // Turning PHP on checks the limits the host already has.
    const d = (await call('GET', 'web/vhosts/limits-d.example.com')).json<Record<string, unknown>>();
    res = await call('POST', 'web/vhosts/update/limits-d.example.com', {
      ...Object.fromEntries(Object.entries(d).filter(([k]) => k in body)),
      enablePhp: true,
    });
    expect(res.statusCode, res.body).toBe(400);
    expect(firstDetail(res).field).toBe('phpMemoryLimit');

    // Lowering a server-wide limit below what PHP hosts ask for is refused, naming them; nothing changes.
    const cur = (await call('GET', 'web/settings')).json<Record<string, unknown>>();
    res = await call('POST', 'web/settings', { ...cur, phpUploadMaxFilesize: '8M' });
    expect(res.statusCode, res.body).toBe(400);
    expect(firstDetail(res)).toEqual({
      field: 'phpUploadMaxFilesize',
      message:
        'PHP Upload Max Filesize cannot be lowered to 8M: 3 virtual hosts ask for more (limits-a.example.com 16M, limits-b.example.com 16M, limits-c.example.com 16M). Lower their PHP Upload Max Filesize first.',
    });
    res = await call('POST', 'web/settings', { ...cur, phpMemoryLimit: '128M', phpMaxExecutionTime: 59 });
    expect(res.statusCode, res.body).toBe(400);
    expect(firstDetail(res).field).toBe('phpMemoryLimit');
    expect(firstDetail(res).message).toMatch(
      /^PHP Memory Limit cannot be lowered to 128M: 2 virtual hosts ask for more \(limits-b\.example\.com 256M, limits-c\.example\.com 262144K\)/,
    );
    expect((await call('GET', 'web/settings')).json()).toMatchObject(limits);
    // Once those two are gone, 128M is the ceiling again (the other tests' hosts ask 128M, limits-a 64M).
    for (const dom of ['limits-b.example.com', 'limits-c.example.com'])
      expect((await call('POST', `web/vhosts/remove/${dom}`, { keepFiles: false })).statusCode).toBe(200);
    res = await call('POST', 'web/settings', { ...cur, phpMemoryLimit: '128M' });
    expect(res.statusCode, res.body).toBe(200);
    res = await call('POST', 'web/settings', { ...cur, phpMemoryLimit: '127M' });
    expect(res.statusCode, res.body).toBe(400);
    expect(firstDetail(res).message).not.toContain('limits-a.example.com');

    for (const dom of ['limits-a.example.com', 'limits-d.example.com'])
      expect((await call('POST', `web/vhosts/remove/${dom}`, { keepFiles: false })).statusCode).toBe(200);
    expect((await call('POST', 'web/settings/reset')).statusCode).toBe(200);
  });
});
