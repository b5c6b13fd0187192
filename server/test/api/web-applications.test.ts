import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeMetrics } from '../fake-metrics.ts';
import { dialects, startTestApp, type TestContext } from '../harness.ts';

describe.each(dialects())('web applications API on %s', (dialect) => {
  let t: TestContext;
  const metrics = new FakeMetrics();
  const call = (method: 'GET' | 'POST', url: string, payload?: object) =>
    t.call({
      method,
      url: `/api/${url}`,
      ...(payload ? { payload } : method === 'POST' ? { payload: {} } : {}),
    });
  const base = (name: string, extra: object = {}) => ({
    name,
    domain: `${name}.example.com`,
    version: '1.0.0',
    deploymentPath: `/var/www/apps/${name}`,
    repository: '/srv/git/none.git',
    startCommand: 'node server.js',
    ...extra,
  });
  const firstDetail = (res: { json: () => { details: { field: string; message: string }[] } }) =>
    res.json().details[0] ?? { field: '', message: '' };
  const site = (domain: string) => t.deps.host.path(`/etc/apache2/sites-available/mailroom-${domain}.conf`);

  beforeAll(async () => {
    t = await startTestApp(dialect, { metrics });
  });
  afterAll(async () => t.close());

  it('creates an application with the spec §9 defaults, its virtual host (503 until deployed), audited', async () => {
    const res = await call(
      'POST',
      'web/applications/add',
      base('shop', { customEnvironmentVariables: { API_KEY: 's3cret' } }),
    );
    expect(res.statusCode, res.body).toBe(200);
    const a = res.json().application;
    expect(res.json().message).toBe('Web application saved successfully!');
    expect(a).toMatchObject({
      name: 'shop',
      type: 'Node.js',
      status: 'inactive',
      environment: 'production',
      branch: 'main',
      port: 3000,
      enableMonitoring: true,
      monitoringEndpoint: '/metrics',
      enableHealthChecks: true,
      healthCheckPath: '/health',
      healthCheckInterval: 30,
      healthCheckTimeout: 10,
      cacheStrategy: 'memory',
      cacheExpiry: 3600,
      enableCompression: true,
      compressionLevel: 6,
      enableSecurityHeaders: true,
      rateLimitRequests: 100,
      rateLimitWindow: 60,
      minInstances: 1,
      maxInstances: 10,
      cpuLimit: '500m',
      memoryLimit: '512Mi',
      backupFrequency: 'weekly',
      customEnvironmentVariables: { API_KEY: 's3cret' },
      environmentVariableNames: ['API_KEY'],
      currentReleaseId: null,
    });
    // Its virtual host exists and answers 503 until a release runs.
    const vhost = await call('GET', 'web/vhosts/shop.example.com');
    expect(vhost.statusCode).toBe(200);
    expect(vhost.json().status).toBe('inactive');
    expect(readFileSync(site('shop.example.com'), 'utf8')).toContain('R=503');
    // The environment is sealed at rest, never in the list.
    const row = await t.deps.database.db
      .selectFrom('web_apps')
      .selectAll()
      .where('name', '=', 'shop')
      .executeTakeFirstOrThrow();
    expect(row.env_sealed).not.toContain('s3cret');
    expect(row.fields).not.toContain('s3cret');
    const list = await call('GET', 'web/applications');
    expect(list.statusCode).toBe(200);
    expect(list.headers['x-total-count']).toBe('1');
    expect(list.body).not.toContain('s3cret');
    expect(list.json()[0].environmentVariableNames).toEqual(['API_KEY']);
    const audit = await t.deps.database.db
      .selectFrom('audit_log')
      .select(['target', 'outcome'])
      .where('action', '=', 'web.app.create')
      .execute();
    expect(audit).toEqual([{ target: 'shop', outcome: 'success' }]);
    const dash = (await call('GET', 'web/dashboard')).json();
    expect(dash.stats.totalWebApplications).toBe(1);
    expect(dash.stats.activeWebApplications).toBe(0);
    expect(dash.applications.map((x: { name: string }) => x.name)).toEqual(['shop']);
  });

  it.each([
    ['branch', 'main;touch /tmp/x', 'Branch format is invalid'],
    ['branch', '--upload-pack=/bin/sh', 'Branch format is invalid'],
    ['repository', '--upload-pack=touch /tmp/x', 'Repository format is invalid'],
    ['repository', 'ext::sh -c touch% /tmp/x', 'Repository format is invalid'],
    [
      'buildCommand',
      'npm ci && touch /tmp/x',
      'Build Command must be a plain command: no shell characters (; | & $ ` < > ( ) { } \\ newline)',
    ],
    [
      'startCommand',
      'node server.js; rm -rf /',
      'Start Command must be a plain command: no shell characters (; | & $ ` < > ( ) { } \\ newline)',
    ],
    ['startCommand', '', 'Start Command is required for a Node.js or Python application'],
    [
      'restartCommand',
      'kill -HUP `cat app.pid`',
      'Restart Command must be a plain command: no shell characters (; | & $ ` < > ( ) { } \\ newline)',
    ],
    ['deploymentPath', '/var/www/../etc', 'Deployment Path format is invalid'],
    ['deploymentPath', '/etc/evil', 'Deployment Path must be inside /var/www (symbolic links resolved)'],
    ['name', 'Bad Name', 'Name format is invalid'],
    ['name', '', 'Name is required'],
    ['version', '', 'Version is required'],
    ['domain', 'localhost', 'Domain format is invalid'],
    ['port', 0, 'Port must be at least 1'],
    ['healthCheckInterval', 0, 'Health Check Interval must be at least 1'],
    ['compressionLevel', 10, 'Compression Level must be at most 9'],
    ['minInstances', 0, 'Min Instances must be at least 1'],
    ['customEnvironmentVariables', { 'BAD-NAME': '1' }, 'Environment Variables format is invalid: BAD-NAME'],
    ['customEnvironmentVariables', { PORT: '80' }, 'Environment Variables: PORT is set by Mailroom'],
    ['autoDeployBranch', 'main;touch /tmp/x', 'Auto Deploy Branch format is invalid'],
  ])('POST web/applications/add refuses %s = %j: %s (nothing written)', async (field, value, message) => {
    const res = await call('POST', 'web/applications/add', base('bad', { [field]: value }));
    expect(res.statusCode, res.body).toBe(400);
    expect(firstDetail(res)).toEqual({ field, message });
    expect(existsSync(site('bad.example.com'))).toBe(false);
    expect(existsSync(t.deps.host.path('/var/www/apps/bad'))).toBe(false);
    expect(existsSync('/tmp/x')).toBe(false);
  });

  it('deploy refuses a malicious ref with a 400 naming the field, starting no job and creating no release', async () => {
    const res = await call('POST', 'web/applications/deploy/shop', { ref: 'main;touch /tmp/x' });
    expect(res.statusCode).toBe(400);
    expect(firstDetail(res)).toEqual({ field: 'ref', message: 'Branch format is invalid' });
    expect((await call('GET', 'web/applications/shop/releases')).json()).toEqual([]);
    expect(existsSync(t.deps.host.path('/var/www/apps/shop/releases'))).toBe(false);
    expect(existsSync('/tmp/x')).toBe(false);
  });

  it('a deploy whose repository cannot be fetched is a job that fails: log lines numbered, app in error, nothing left', async () => {
    const res = await call('POST', 'web/applications/deploy/shop');
    expect(res.statusCode, res.body).toBe(202);
    const jobId = res.json().jobId;
    let log = { done: false, lines: [] as { seq: number; text: string }[], state: '' };
    for (let i = 0; i < 100 && !log.done; i++) {
      await new Promise((r) => setTimeout(r, 100));
      log = (await call('GET', `web/applications/shop/deploy-log?jobId=${jobId}`)).json();
    }
    expect(log.state).toBe('failed');
    expect(log.lines.map((l) => l.seq)).toEqual(log.lines.map((_, i) => i + 1));
    expect(log.lines.some((l) => l.text.includes('Failed'))).toBe(true);
    // Resume after line 1: only the later lines.
    const rest = (await call('GET', `web/applications/shop/deploy-log?jobId=${jobId}&after=1`)).json();
    expect(rest.lines[0].seq).toBe(2);
    const app = (await call('GET', 'web/applications/shop')).json();
    expect(app.status).toBe('error');
    expect(app.statusMessage).toContain('Failed');
    const releases = (await call('GET', 'web/applications/shop/releases')).json();
    expect(releases).toHaveLength(1);
    expect(releases[0]).toMatchObject({ state: 'failed', path: null, environmentVariableNames: ['API_KEY'] });
    expect(JSON.stringify(releases)).not.toContain('s3cret');
    const dir = t.deps.host.path('/var/www/apps/shop/releases');
    expect(existsSync(dir) ? readdirSync(dir) : []).toEqual([]);
  });

  it('an application in error is a system alert (the engine evaluates on each metrics sample)', async () => {
    const open = async () => {
      metrics.emit({});
      await new Promise((r) => setTimeout(r, 50));
      const { alerts } = (await call('GET', 'system/alerts?state=active')).json();
      return (alerts as { title: string; severity: string; message: string }[]).find(
        (a) => a.title === 'Application unhealthy: shop',
      );
    };
    let alert = await open();
    for (let i = 0; i < 100 && !alert; i++) alert = await open();
    expect(alert).toMatchObject({ severity: 'critical' });
    expect(alert!.message).toContain('Failed');
  });

  it('start without a release, unknown apps, rollback without history: plain refusals', async () => {
    expect((await call('POST', 'web/applications/start/shop')).json().message).toBe(
      'shop has no healthy release to run yet: deploy it first',
    );
    expect((await call('GET', 'web/applications/nope')).statusCode).toBe(404);
    expect((await call('POST', 'web/applications/rollback/shop')).statusCode).toBe(409);
    expect((await call('GET', 'web/applications/Bad%20Name')).statusCode).toBe(400);
  });

  it('pages on the server with filters and keyset cursors; a second app on the same domain is refused', async () => {
    for (const n of ['alpha', 'beta', 'gamma'])
      expect(
        (await call('POST', 'web/applications/add', base(n, { type: 'Static', startCommand: '' })))
          .statusCode,
      ).toBe(200);
    const dup = await call('POST', 'web/applications/add', base('other', { domain: 'shop.example.com' }));
    expect(dup.statusCode).toBe(409);
    expect(firstDetail(dup)).toEqual({
      field: 'domain',
      message: 'shop.example.com is already served by the application shop',
    });
    const p1 = await call('GET', 'web/applications?limit=2');
    expect(p1.json().map((a: { name: string }) => a.name)).toEqual(['alpha', 'beta']);
    expect(p1.headers['x-total-count']).toBe('4');
    const p2 = await call('GET', `web/applications?limit=2&cursor=${String(p1.headers['x-next-cursor'])}`);
    expect(p2.json().map((a: { name: string }) => a.name)).toEqual(['gamma', 'shop']);
    const statics = await call('GET', 'web/applications?type=Static&q=AMM');
    expect(statics.json().map((a: { name: string }) => a.name)).toEqual(['gamma']);
    expect(
      (await call('GET', 'web/applications?status=error')).json().map((a: { name: string }) => a.name),
    ).toEqual(['shop']);
    expect((await call('GET', 'web/applications?type=Cobol')).statusCode).toBe(400);
  });

  it('update keeps the name, moves the domain; delete removes the app, its host and (asked) its files', async () => {
    const up = await call(
      'POST',
      'web/applications/update/beta',
      base('beta', { type: 'Static', startCommand: '', domain: 'beta2.example.com', description: 'Docs' }),
    );
    expect(up.statusCode, up.body).toBe(200);
    expect(existsSync(site('beta.example.com'))).toBe(false);
    expect(existsSync(site('beta2.example.com'))).toBe(true);
    const rename = await call(
      'POST',
      'web/applications/update/beta',
      base('zeta', { type: 'Static', startCommand: '' }),
    );
    expect(firstDetail(rename).field).toBe('name');
    const del = await call('POST', 'web/applications/remove/beta', { keepFiles: false });
    expect(del.statusCode, del.body).toBe(200);
    expect(del.json()).toEqual({ success: true, filesRemoved: true, deploymentPath: '/var/www/apps/beta' });
    expect(existsSync(site('beta2.example.com'))).toBe(false);
    expect(existsSync(t.deps.host.path('/var/www/apps/beta'))).toBe(false);
    expect((await call('GET', 'web/vhosts/beta2.example.com')).statusCode).toBe(404);
    // The virtual host of an application is deleted with the application, not alone.
    const vh = await call('POST', 'web/vhosts/remove/shop.example.com', { keepFiles: true });
    expect(vh.statusCode).toBe(409);
    expect(vh.json().message).toBe(
      'shop.example.com serves the web application shop: delete the application instead',
    );
    const caps = (await call('GET', 'web/capabilities/applications')).json();
    expect(caps.supportedTypes).toEqual([
      'Angular',
      'PHP',
      'Node.js',
      'Python',
      'Static',
      'Roundcube',
      'WordPress',
      'Drupal',
    ]);
    expect(caps.unsupportedTypes).toEqual({});
    expect(caps.releaseRetention).toBe(5);
  });

  it.each([
    ['WordPress', { DB_PASSWORD: 'pa"ss' }, 'DB_PASSWORD'],
    ['Drupal', { DB_PASSWORD: 'back\\slash' }, 'DB_PASSWORD'],
    ['PHP', { A: 'ok', B: 'x${HOME}' }, 'B'],
  ])(
    'a %s application refuses a variable value Apache would misread (%j), naming the field; nothing written',
    async (type, env, name) => {
      const res = await call(
        'POST',
        'web/applications/add',
        base('badphp', { type, startCommand: '', customEnvironmentVariables: env }),
      );
      expect(res.statusCode, res.body).toBe(400);
      expect(firstDetail(res)).toEqual({
        field: 'customEnvironmentVariables',
        message: `Environment Variables: ${name} cannot hold " or \\ or \${ in a PHP application (its values are written into its Apache host)`,
      });
      expect(existsSync(site('badphp.example.com'))).toBe(false);
      expect(existsSync(t.deps.host.path('/var/www/apps/badphp'))).toBe(false);
    },
  );

  it("PHP types: no Start Command or port; the host serves files with the type's lines and hands its variables to PHP; the pool is the app's own", async () => {
    const res = await call(
      'POST',
      'web/applications/add',
      base('wpapi', {
        type: 'WordPress',
        startCommand: '',
        memoryLimit: '256Mi',
        customEnvironmentVariables: { DB_NAME: 'wp', DB_PASSWORD: "it's & 100%" },
      }),
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().application).toMatchObject({
      type: 'WordPress',
      status: 'inactive',
      runningPort: null,
    });
    const file = site('wpapi.example.com');
    const text = readFileSync(file, 'utf8');
    expect(text).toContain('FallbackResource /index.php');
    expect(text).toContain('SetEnv DB_NAME "wp"');
    expect(text).toContain('SetEnv DB_PASSWORD "it\'s & 100%"');
    expect(text).not.toContain('ProxyPass /');
    // The variables are for Apache's root master only.
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readFileSync(t.deps.host.path('/etc/apache2/conf-available/zz-mailroom.conf'), 'utf8')).toContain(
      'LoadModule env_module',
    );
    const fpm = ['8.3', '8.2', '8.1', '8.0', '7.4'].find((v) => existsSync(`/usr/sbin/php-fpm${v}`));
    const pool = fpm && t.deps.host.path(`/etc/php/${fpm}/fpm/pool.d/mailroom-wpapi.example.com.conf`);
    if (!pool)
      console.warn('php-fpm is not installed (Debian package php8.2-fpm): the app pool is not checked');
    else {
      const p = readFileSync(pool, 'utf8');
      expect(p).toContain('php_admin_value[memory_limit] = 256M');
      if (process.getuid?.() === 0) expect(p).toContain('user = mr-app-wpapi');
      // The variables are in the host, never in the pool file.
      expect(p).not.toContain('100%');
    }
    // The deploy of a repository that cannot be fetched fails as a job (PHP-FPM installed) or is refused.
    const dep = await call('POST', 'web/applications/deploy/wpapi');
    expect([202, 409]).toContain(dep.statusCode);
    if (dep.statusCode === 409)
      expect(dep.json().message).toBe(
        'PHP-FPM is not installed on this server (Debian package php8.2-fpm): a PHP application cannot run yet',
      );
    else
      for (let i = 0; i < 200; i++) {
        const j = (await call('GET', `jobs/${dep.json().jobId}`)).json();
        if (j.state === 'failed') break;
        await new Promise((r) => setTimeout(r, 100));
      }
    const del = await call('POST', 'web/applications/remove/wpapi', { keepFiles: false });
    expect(del.statusCode, del.body).toBe(200);
    expect(existsSync(file)).toBe(false);
    if (pool) expect(existsSync(pool)).toBe(false);
  });

  it('Python needs a Start Command; Angular does not, and its host answers index.html for deep links', async () => {
    const py = await call(
      'POST',
      'web/applications/add',
      base('pyapp', { type: 'Python', startCommand: '' }),
    );
    expect(py.statusCode, py.body).toBe(400);
    expect(firstDetail(py)).toEqual({
      field: 'startCommand',
      message: 'Start Command is required for a Node.js or Python application',
    });
    expect(existsSync(site('pyapp.example.com'))).toBe(false);
    const ng = await call(
      'POST',
      'web/applications/add',
      base('ngapp', { type: 'Angular', startCommand: '', buildCommand: 'npx ng build' }),
    );
    expect(ng.statusCode, ng.body).toBe(200);
    expect(ng.json().application).toMatchObject({ type: 'Angular', status: 'inactive' });
    const text = readFileSync(site('ngapp.example.com'), 'utf8');
    expect(text).toContain('FallbackResource /index.html');
    expect(text).not.toContain('ProxyPass /');
    // A release's build log is read by its job, paged, and only through its own application.
    const shopJob = (await call('GET', 'web/applications/shop/releases')).json()[0].jobId as number;
    const own = (await call('GET', `web/applications/shop/deploy-log?jobId=${shopJob}&limit=2`)).json();
    expect(own.lines.map((l: { seq: number }) => l.seq)).toEqual([1, 2]);
    expect(own.done).toBe(false);
    const other = (await call('GET', `web/applications/ngapp/deploy-log?jobId=${shopJob}`)).json();
    expect(other.lines).toEqual([]);
    const del = await call('POST', 'web/applications/remove/ngapp', { keepFiles: false });
    expect(del.statusCode, del.body).toBe(200);
  });
});
