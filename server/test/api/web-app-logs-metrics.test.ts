import { appendFileSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { saveMetrics } from '../../src/features/web/applications/app-metrics.repository.ts';
import { scrapeOnce } from '../../src/features/web/applications/app-metrics.service.ts';
import { dialects, startTestApp, type TestContext } from '../harness.ts';

type Entry = {
  id: string;
  service: string;
  message: string;
  level: string;
  pid: number | null;
  timestamp: string;
};

/**
 * Issue 20, logs and metrics: the applications' logs in the System Logs screen (source `apps`,
 * service = the app), the log files table and Clear Logs; the Monitoring Endpoint reading by API.
 */
describe.each(dialects())('web application logs and metrics on %s', (dialect) => {
  let t: TestContext;
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
  const logOf = (name: string) => t.deps.host.path(`/var/www/apps/${name}/logs/${name}.log`);
  const at = (s: number) => new Date(Date.UTC(2026, 10, 27, 10, 0, s)).toISOString();
  const put = (file: string, lines: string[]) => {
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, lines.map((l) => `${l}\n`).join(''));
  };
  const logs = async (q: string) => {
    const res = await call('GET', `system/logs?source=apps&${q}`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{ entries: Entry[]; nextCursor: string | null; origin: string }>();
  };

  beforeAll(async () => {
    t = await startTestApp(dialect);
    for (const n of ['alpha', 'beta']) {
      const res = await call('POST', 'web/applications/add', base(n));
      expect(res.statusCode, res.body).toBe(200);
    }
    // As Mailroom's supervisor writes them: `<ISO> <name>[<pid>]: <text>`; the two apps interleave in time.
    put(
      logOf('alpha'),
      Array.from(
        { length: 30 },
        (_, i) => `${at(i * 2)} alpha[101]: alpha line ${i}${i === 7 ? ' error: boom' : ''}`,
      ),
    );
    put(
      logOf('beta'),
      Array.from(
        { length: 30 },
        (_, i) =>
          `${at(i * 2 + 1)} beta[202]: ${JSON.stringify({ level: i === 3 ? 50 : 30, msg: `beta ${i}` })}`,
      ),
    );
    put(`${logOf('beta')}.1`, [`${at(0)} beta[202]: older, rotated`]);
  });
  afterAll(async () => t.close());

  it('merges the apps’ logs newest first with service = the app, and pages without a line lost or repeated', async () => {
    const seen: Entry[] = [];
    let cursor: string | null = null;
    for (let page = 0; page < 10; page++) {
      const body = await logs(`limit=7${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      seen.push(...body.entries);
      cursor = body.nextCursor;
      if (!cursor) break;
    }
    expect(seen).toHaveLength(60);
    expect(new Set(seen.map((e) => e.id)).size).toBe(60);
    expect(seen[0]).toMatchObject({ service: 'beta', pid: 202, timestamp: at(59) });
    expect(seen.at(-1)).toMatchObject({ service: 'alpha', message: 'alpha line 0', timestamp: at(0) });
    const times = seen.map((e) => e.timestamp);
    expect([...times].sort().reverse()).toEqual(times);
  });

  it('filters by service (the app), level and search like the other logs', async () => {
    const beta = await logs('service=beta&limit=100');
    expect(beta.entries).toHaveLength(30);
    expect(beta.entries.every((e) => e.service === 'beta')).toBe(true);
    expect(beta.origin).toBe(logOf('beta'));
    const errors = await logs('level=error&limit=100');
    expect(errors.entries.map((e) => [e.service, e.message])).toEqual([
      ['alpha', 'alpha line 7 error: boom'],
      ['beta', '{"level":50,"msg":"beta 3"}'],
    ]);
    const search = await logs('search=LINE%2012&limit=100');
    expect(search.entries.map((e) => e.message)).toEqual(['alpha line 12']);
    const download = await call('GET', 'system/logs/download?source=apps&service=alpha&search=line%202');
    expect(download.statusCode).toBe(200);
    expect(download.body.trim().split('\n')).toHaveLength(11); // line 2, 20..29
    expect((await call('GET', 'system/logs?source=apps&cursor=f:12')).statusCode).toBe(400);
  });

  it('lists the apps’ log files (and rotated copies) in the log files table; Clear Logs of apps empties them', async () => {
    const files = (await call('GET', 'system/logs/files')).json<{
      files: { log: string; path: string; rotated: boolean; app?: string; size: number }[];
    }>().files;
    const apps = files.filter((f) => f.log === 'apps');
    expect(apps.map((f) => [f.app, f.path, f.rotated])).toEqual([
      ['alpha', logOf('alpha'), false],
      ['beta', logOf('beta'), false],
      ['beta', `${logOf('beta')}.1`, true],
    ]);
    // A symbolic link put in place of a log is neither listed nor read.
    const outside = t.deps.host.path('/srv/precious.txt');
    put(outside, ['must survive']);
    await call('POST', 'web/applications/add', base('gamma'));
    mkdirSync(path.dirname(logOf('gamma')), { recursive: true });
    symlinkSync(outside, logOf('gamma'));
    expect((await logs('service=gamma')).entries).toEqual([]);
    const cleared = await call('POST', 'system/logs/clear', { logs: ['apps'] });
    expect(cleared.statusCode, cleared.body).toBe(200);
    expect(cleared.json()).toMatchObject({ emptied: 2, deleted: 1, errors: [] });
    expect(readFileSync(logOf('alpha'), 'utf8')).toBe('');
    expect(readFileSync(outside, 'utf8')).toBe('must survive\n');
    expect((await logs('limit=10')).entries).toEqual([]);
  });

  it('Log Path must be a .log file inside the allowed roots or /var/log/<name>/ (400 naming the field)', async () => {
    for (const logPath of ['/etc/passwd', '/var/log/mail.log', '/var/www/apps/alpha/out.txt']) {
      const res = await call('POST', 'web/applications/update/alpha', base('alpha', { logPath }));
      expect(res.statusCode, logPath).toBe(400);
      expect(res.json().details[0]).toMatchObject({ field: 'logPath' });
    }
    const ok = await call(
      'POST',
      'web/applications/update/alpha',
      base('alpha', { logPath: '/var/log/alpha/app.log' }),
    );
    expect(ok.statusCode, ok.body).toBe(200);
    const moved = t.deps.host.path('/var/log/alpha/app.log');
    put(moved, [`${at(5)} alpha[9]: from the new place`]);
    expect((await logs('service=alpha')).entries.map((e) => e.message)).toEqual(['from the new place']);
  });

  it("the live stream follows one app's log (service = the app) from its end", async () => {
    const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const ctrl = new AbortController();
    const res = await fetch(`${address}/api/system/logs/stream?source=apps&service=alpha`, {
      headers: { authorization: `Bearer ${t.token}` },
      signal: ctrl.signal,
    });
    const reader = res.body!.getReader();
    let text = '';
    let pending: ReturnType<typeof reader.read> | null = null;
    const until = async (pred: () => boolean) => {
      const deadline = Date.now() + 10_000;
      while (!pred() && Date.now() < deadline) {
        pending ??= reader.read();
        const chunk = await Promise.race([pending, new Promise<null>((r) => setTimeout(() => r(null), 500))]);
        if (!chunk) continue;
        pending = null;
        if (!chunk.done) text += new TextDecoder().decode(chunk.value);
      }
    };
    const file = t.deps.host.path('/var/log/alpha/app.log');
    await until(() => text.includes(JSON.stringify(file)));
    expect(text).toContain(`"origin":${JSON.stringify(file)}`);
    appendFileSync(file, `${at(40)} alpha[77]: LIVE from the app\n`);
    await until(() => text.includes('LIVE from the app'));
    ctrl.abort();
    const data = text
      .split('\n')
      .filter((l) => l.startsWith('data: {') && l.includes('LIVE'))
      .map((l) => JSON.parse(l.slice(6)) as Entry);
    expect(data).toEqual([
      expect.objectContaining({ service: 'alpha', pid: 77, message: 'LIVE from the app', timestamp: at(40) }),
    ]);
  });

  it('the metrics of an app: off, not running, 404 for an unknown app', async () => {
    const a = await call('GET', 'web/applications/alpha/metrics');
    expect(a.statusCode, a.body).toBe(200);
    expect(a.json()).toMatchObject({
      name: 'alpha',
      state: 'not-running',
      endpoint: '/metrics',
      series: [],
      scrapedAt: null,
    });
    await call('POST', 'web/applications/update/beta', base('beta', { enableMonitoring: false }));
    expect((await call('GET', 'web/applications/beta/metrics')).json().state).toBe('off');
    expect((await call('GET', 'web/applications/nosuch/metrics')).statusCode).toBe(404);
    expect((await call('GET', 'web/applications/Bad!/metrics')).statusCode).toBe(400);
  });

  it('the latest reading is one row per app (replaced by the next), answered with its series or its error', async () => {
    const id = (await call('GET', 'web/applications/alpha')).json().id as number;
    const at = Date.UTC(2026, 10, 27, 12, 0, 0);
    const series = [
      {
        name: 'hits_total',
        type: 'counter' as const,
        help: 'Hits',
        labels: { path: '/' },
        value: 7,
        raw: '7',
      },
    ];
    await saveMetrics(t.deps.database.db, id, {
      scrapedAt: at,
      endpoint: '/metrics',
      ok: true,
      error: null,
      httpStatus: 200,
      bytes: 50,
      durationMs: 3,
      seriesTotal: 1,
      series,
    });
    expect((await call('GET', 'web/applications/alpha/metrics')).json()).toMatchObject({
      state: 'ok',
      scrapedAt: new Date(at).toISOString(),
      httpStatus: 200,
      seriesTotal: 1,
      series,
    });
    await saveMetrics(t.deps.database.db, id, {
      scrapedAt: at + 30_000,
      endpoint: '/metrics',
      ok: false,
      error: 'HTTP 500 from the endpoint',
      httpStatus: 500,
      bytes: 0,
      durationMs: 2,
      seriesTotal: 0,
      series: [],
    });
    const m = (await call('GET', 'web/applications/alpha/metrics')).json();
    expect(m).toMatchObject({ state: 'error', error: 'HTTP 500 from the endpoint', series: [] });
    expect(m.scrapedAt).toBe(new Date(at + 30_000).toISOString());
    const rows = await t.deps.database.db.selectFrom('web_app_metrics').selectAll().execute();
    expect(rows).toHaveLength(1);
    // Deleting the app deletes its reading.
    await call('POST', 'web/applications/add', base('delta'));
    const did = (await call('GET', 'web/applications/delta')).json().id as number;
    await saveMetrics(t.deps.database.db, did, {
      scrapedAt: at,
      endpoint: '/metrics',
      ok: true,
      error: null,
      httpStatus: 200,
      bytes: 1,
      durationMs: 1,
      seriesTotal: 0,
      series: [],
    });
    expect((await call('POST', 'web/applications/remove/delta', { keepFiles: false })).statusCode).toBe(200);
    const left = await t.deps.database.db.selectFrom('web_app_metrics').select('app_id').execute();
    expect(left.map((r) => Number(r.app_id))).toEqual([id]);
  });

  it('a scrape reads Prometheus text through the port; an HTML answer, a 404 or a silent port is an error, never zeros', async () => {
    const server = http.createServer((req, res) => {
      if (req.url === '/metrics') {
        res.writeHead(200, { 'content-type': 'text/plain; version=0.0.4' });
        res.end('# TYPE hits_total counter\nhits_total{path="/"} 42\n# TYPE up gauge\nup 1\n');
      } else if (req.url === '/html') {
        res.writeHead(200, { 'content-type': 'text/html' });
        res.end('<!DOCTYPE html><p>hi</p>');
      } else if (req.url === '/big') {
        res.writeHead(200);
        res.end('x 1\n'.repeat(200_000));
      } else {
        res.writeHead(404);
        res.end();
      }
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const port = (server.address() as AddressInfo).port;
    try {
      const ok = await scrapeOnce(port, '/metrics');
      expect(ok).toMatchObject({ ok: true, error: null, seriesTotal: 2, httpStatus: 200 });
      expect(ok.series.map((s) => [s.name, s.type, s.value])).toEqual([
        ['hits_total', 'counter', 42],
        ['up', 'gauge', 1],
      ]);
      const html = await scrapeOnce(port, '/html');
      expect(html).toMatchObject({ ok: false, series: [] });
      expect(html.error).toBe(
        'Not Prometheus text: line 1: a metric name was expected: <!DOCTYPE html><p>hi</p> (the endpoint answered text/html)',
      );
      expect((await scrapeOnce(port, '/nope')).error).toBe('HTTP 404 from the endpoint');
      expect((await scrapeOnce(port, '/big')).error).toBe('The answer is larger than 512 KiB');
    } finally {
      await new Promise((r) => server.close(r));
    }
    const closed = await scrapeOnce(1, '/metrics');
    expect(closed.ok).toBe(false);
    expect(closed.error).toMatch(/^No answer/);
  });
});
