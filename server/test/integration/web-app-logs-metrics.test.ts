import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setScrapeInterval } from '../../src/features/web/applications/app-metrics.service.ts';
import { APP_LOG_ROTATION, rotatedCopies, setAppLogRotation } from '../../src/host/rotating-log.ts';
import type { TestContext } from '../harness.ts';
import { skipLoudly } from '../skip-loudly.ts';
import { request, startWithLocalApache } from './web-apache-helpers.ts';

const have = (cmd: string, args: string[]) => {
  try {
    execFileSync(cmd, args, { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
};
const haveAll = have('apache2', ['-v']) && have('git', ['--version']) && process.getuid?.() === 0;
if (!haveAll)
  skipLoudly(
    'apache2 (Debian package apache2), git (Debian package git) or root is missing: application logs and metrics are not proved on a deployed app',
  );

/**
 * A tiny Node app that logs and speaks Prometheus text: each request is a stdout line; /burst
 * prints numbered lines (to make the log rotate); /metrics counts the requests.
 */
const SERVER_JS = `
const http = require('node:http');
let hits = 0;
const server = http.createServer((req, res) => {
  hits++;
  console.log('request ' + req.url);
  if (req.url === '/health') { res.end('ok'); return; }
  if (req.url === '/fail') { res.writeHead(500); res.end('failed'); return; }
  if (req.url.startsWith('/burst')) {
    const n = Number(new URL(req.url, 'http://x').searchParams.get('n'));
    for (let i = 0; i < n; i++) console.log('burst ' + String(i).padStart(4, '0') + ' ' + 'z'.repeat(60));
    console.error('warning: burst of ' + n + ' done');
    res.end('done'); return;
  }
  if (req.url === '/metrics') {
    res.writeHead(200, { 'content-type': 'text/plain; version=0.0.4' });
    res.end('# HELP app_requests_total Requests served\\n# TYPE app_requests_total counter\\napp_requests_total ' + hits + '\\n# TYPE app_up gauge\\napp_up 1\\n');
    return;
  }
  res.end('hello ' + process.env.PORT);
});
server.listen(Number(process.env.PORT), '127.0.0.1', () => console.log('listening on ' + process.env.PORT));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
`;

describe.skipIf(!haveAll)('web application logs and metrics, deployed through the real pipeline', () => {
  let t: TestContext;
  let httpPort: number;
  let repo: string;
  const domain = 'logs.example.com';
  const call = (method: 'GET' | 'POST', url: string, payload?: object) =>
    t.call({
      method,
      url: `/api/${url}`,
      ...(payload ? { payload } : method === 'POST' ? { payload: {} } : {}),
    });
  const appBody = {
    name: 'logapp',
    domain,
    version: '1.0.0',
    deploymentPath: '/var/www/apps/logapp',
    startCommand: `${process.execPath} server.js`,
    healthCheckInterval: 3,
    healthCheckTimeout: 2,
    shutdownTimeout: 1,
  };
  const logFile = () => t.deps.host.path('/var/www/apps/logapp/logs/logapp.log');
  const appLogs = async (q = '') => {
    const res = await call('GET', `system/logs?source=apps&service=logapp&limit=500${q}`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{ entries: { service: string; message: string; level: string; pid: number | null }[] }>()
      .entries;
  };
  const direct = async (port: number, p: string) => (await request(port, '127.0.0.1', { path: p })).body;

  beforeAll(async () => {
    // Small files so a burst rotates; the figures read every second.
    setAppLogRotation({ maxBytes: 8 * 1024, keep: 3 });
    setScrapeInterval(1000);
    repo = mkdtempSync(path.join(os.tmpdir(), 'mailroom-applogs-repo-'));
    execFileSync('git', ['init', '-q', '-b', 'main', repo]);
    writeFileSync(path.join(repo, 'server.js'), SERVER_JS);
    const git = (...args: string[]) =>
      execFileSync('git', ['-C', repo, '-c', 'user.email=t@example.com', '-c', 'user.name=t', ...args]);
    git('add', '-A');
    git('commit', '-q', '-m', 'v1');
    ({ t, httpPort } = await startWithLocalApache());
    const created = await call('POST', 'web/applications/add', { ...appBody, repository: repo });
    expect(created.statusCode, created.body).toBe(200);
    const res = await call('POST', 'web/applications/deploy/logapp', {});
    expect(res.statusCode, res.body).toBe(202);
    for (let i = 0; i < 600; i++) {
      const j = (await call('GET', `jobs/${res.json().jobId}`)).json();
      if (j.state !== 'running' && j.state !== 'queued') {
        expect(j.state, JSON.stringify(j)).toBe('succeeded');
        break;
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  }, 90_000);
  afterAll(async () => {
    await t?.close();
    setAppLogRotation(APP_LOG_ROTATION);
    setScrapeInterval(30_000);
    rmSync(repo, { recursive: true, force: true });
  });

  it("the app's output reaches its Log Path and the System Logs API with service = the app (and its pid)", async () => {
    const r = await request(httpPort, domain, { path: '/hello-from-the-test' });
    expect(r.status).toBe(200);
    const app = (await call('GET', 'web/applications/logapp')).json();
    await expect
      .poll(async () => (await appLogs()).map((e) => e.message), { timeout: 10_000 })
      .toContain('request /hello-from-the-test');
    const entries = await appLogs();
    expect(entries.every((e) => e.service === 'logapp')).toBe(true);
    expect(entries.find((e) => e.message === 'request /hello-from-the-test')?.pid).toBe(app.pid);
    expect(entries.map((e) => e.message)).toContain(`listening on ${app.runningPort}`);
    expect(readFileSync(logFile(), 'utf8')).toMatch(/ logapp\[\d+\]: request \/hello-from-the-test\n/);
    // The merged view (no service filter) and the level filter find it too.
    const all = (await call('GET', 'system/logs?source=apps&search=hello-from-the-test')).json();
    expect(all.entries.map((e: { service: string }) => e.service)).toEqual(['logapp']);
    const files = (await call('GET', 'system/logs/files')).json().files;
    expect(files).toContainEqual(expect.objectContaining({ log: 'apps', app: 'logapp', path: logFile() }));
  }, 30_000);

  it('rotation keeps every line and the app keeps writing to the new file', async () => {
    const app = (await call('GET', 'web/applications/logapp')).json();
    expect(await direct(app.runningPort, '/burst?n=300')).toBe('done');
    const ids = async () => {
      const text = [...(await rotatedCopies(logFile())), logFile()]
        .map((f) => readFileSync(f, 'utf8'))
        .join('');
      return new Set([...text.matchAll(/burst (\d{4}) z/g)].map((m) => m[1]));
    };
    // 300 lines of ~110 bytes = 33 KB through 8 KB files with 3 kept: the oldest copies are gone,
    // what is kept is consecutive and ends with the last line.
    await expect.poll(async () => (await ids()).has('0299'), { timeout: 10_000 }).toBe(true);
    const copies = await rotatedCopies(logFile());
    expect(copies.map((f) => path.basename(f))).toEqual(['logapp.log.1', 'logapp.log.2', 'logapp.log.3']);
    const kept = [...(await ids())].map(Number).sort((a, b) => a - b);
    expect(kept.at(-1)).toBe(299);
    expect(kept.length).toBe(kept.at(-1)! - kept[0]! + 1);
    // After the rotation the app's next line lands in the current file, and the API shows it.
    await request(httpPort, domain, { path: '/after-rotation' });
    await expect
      .poll(() => readFileSync(logFile(), 'utf8').includes('request /after-rotation'), { timeout: 10_000 })
      .toBe(true);
    const warning = await appLogs('&level=warning');
    expect(warning.map((e) => e.message)).toContain('warning: burst of 300 done');
  }, 30_000);

  it("the Monitoring Endpoint's figures are scraped through the app's port and shown by API; a non-Prometheus answer is the parse error", async () => {
    await expect
      .poll(async () => (await call('GET', 'web/applications/logapp/metrics')).json().state, {
        timeout: 15_000,
      })
      .toBe('ok');
    const m = (await call('GET', 'web/applications/logapp/metrics')).json();
    expect(m).toMatchObject({ endpoint: '/metrics', error: null, httpStatus: 200, seriesTotal: 2 });
    const hits = m.series.find((s: { name: string }) => s.name === 'app_requests_total');
    expect(hits).toMatchObject({ type: 'counter', help: 'Requests served' });
    expect(hits.value).toBeGreaterThan(0);
    // The endpoint moved to a path that answers plain words: the reading becomes its parse error.
    const upd = await call('POST', 'web/applications/update/logapp', {
      ...appBody,
      repository: repo,
      monitoringEndpoint: '/health',
    });
    expect(upd.statusCode, upd.body).toBe(200);
    await expect
      .poll(async () => (await call('GET', 'web/applications/logapp/metrics')).json().state, {
        timeout: 15_000,
      })
      .toBe('error');
    const bad = (await call('GET', 'web/applications/logapp/metrics')).json();
    expect(bad.error).toBe(
      'Not Prometheus text: line 1: a space and a value were expected after the metric name: ok',
    );
    expect(bad.series).toEqual([]);
  }, 40_000);

  it("requests and errors (5xx) per app come from Apache's access log of its domain (real, not zeros)", async () => {
    for (let i = 0; i < 5; i++)
      expect((await request(httpPort, domain, { path: `/count-${i}` })).status).toBe(200);
    for (let i = 0; i < 2; i++) expect((await request(httpPort, domain, { path: '/fail' })).status).toBe(500);
    const figures = async () => {
      const a = (await call('GET', 'web/applications?q=logapp'))
        .json()
        .find((x: { name: string }) => x.name === 'logapp');
      return { requests: a?.requests ?? 0, errors: a?.errors ?? 0 };
    };
    await expect
      .poll(async () => (await figures()).errors, { timeout: 40_000, interval: 1000 })
      .toBeGreaterThanOrEqual(2);
    expect((await figures()).requests).toBeGreaterThanOrEqual(7);
    const a = (await call('GET', 'web/applications/logapp')).json();
    expect(a.uptime).toBeGreaterThanOrEqual(0);
  }, 60_000);
});
