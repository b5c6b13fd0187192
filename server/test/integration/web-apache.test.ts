import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestContext } from '../harness.ts';
import { skipLoudly } from '../skip-loudly.ts';
import { ApacheProcess, freePort, openForApache, request } from './web-apache-helpers.ts';
import { execFileSync } from 'node:child_process';

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
  });
});
