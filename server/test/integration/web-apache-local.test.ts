import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isAlive } from '../../src/host/apache-host.ts';
import { localApacheDaemon } from '../../src/features/web/web.module.ts';
import { startTestApp, type TestContext } from '../harness.ts';
import { skipLoudly } from '../skip-loudly.ts';
import { freePort, openForApache, request } from './web-apache-helpers.ts';

const haveApache = (() => {
  try {
    execFileSync('apache2', ['-v']);
    return process.getuid?.() === 0;
  } catch {
    return false;
  }
})();
if (!haveApache)
  skipLoudly(
    'apache2 (Debian package apache2) or root is missing: local-mode Apache supervision is not tested',
  );

describe.skipIf(!haveApache)('local mode: Mailroom runs Apache from its files', () => {
  let t: TestContext;
  let httpPort: number;
  beforeAll(async () => {
    httpPort = await freePort();
    t = await startTestApp('sqlite', {
      env: { MAILROOM_HTTP_PORT: String(httpPort), MAILROOM_HTTPS_PORT: String(await freePort()) },
      webDaemon: (host, config) => localApacheDaemon(host, config),
    });
    openForApache(t.dataDir);
  }, 60_000);
  afterAll(async () => {
    await t?.close();
  });

  it('renders at start, runs Apache, reloads it after a checked change, reports its real state, stops it with Mailroom', async () => {
    const pidFile = path.join(t.deps.host.root, 'run/apache2/mailroom-apache2.pid');
    const until = Date.now() + 20_000;
    let state = '';
    while (Date.now() < until) {
      const d = (await t.call({ method: 'GET', url: '/api/web/dashboard' })).json();
      state = d.status[0].state;
      if (state === 'running') break;
      await new Promise((r) => setTimeout(r, 200));
    }
    expect(state).toBe('running');
    const dash = (await t.call({ method: 'GET', url: '/api/web/dashboard' })).json();
    const pid = Number(readFileSync(pidFile, 'utf8').trim());
    expect(dash.status[0].pid).toBe(pid);
    expect(dash.stats.uptime).toBeGreaterThanOrEqual(0);
    // The catch-all answers before any site exists.
    expect((await request(httpPort, 'nothing.example.com')).status).toBe(404);
    const add = await t.call({
      method: 'POST',
      url: '/api/web/vhosts/add',
      payload: {
        domain: 'run.example.com',
        serverName: 'run.example.com',
        documentRoot: '/var/www/run.example.com',
      },
    });
    expect(add.statusCode, add.body).toBe(200);
    const r = await request(httpPort, 'run.example.com');
    expect(r.status).toBe(200);
    expect(r.body).toContain('run.example.com');
    // Gracefully reloaded: the same master.
    expect(Number(readFileSync(pidFile, 'utf8').trim())).toBe(pid);
    await t.app.close();
    expect(isAlive(pid)).toBe(false);
    expect(existsSync(pidFile)).toBe(false);
  });
});
