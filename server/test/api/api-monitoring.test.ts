import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.ts';
import { openDatabase, type DatabaseHandle } from '../../src/db/database.ts';
import { addAdmin } from '../../src/features/auth/admin.service.ts';
import { SETTINGS_POLL_MS } from '../../src/features/api-monitoring/api-monitoring.module.ts';
import { BUCKET_COLUMNS, quantile } from '../../src/features/api-monitoring/latency-histogram.service.ts';
import { ADMIN, dialects, startTestApp, type TestContext } from '../harness.ts';

interface Stats {
  requestCount: number;
  errorCount: number;
  clientErrorCount: number;
  rateLimitedCount: number;
  errorRate: number | null;
  clientErrorRate: number | null;
  cacheHitRate: number | null;
  averageResponseTime: number | null;
  p50: number | null;
  p95: number | null;
  p99: number | null;
  routes: { method: string; route: string; requestCount: number; errorCount: number; p95: number }[];
  recent: { route: string; status: number; cache: string | null }[];
}

const failRoute = (app: FastifyInstance) => {
  app.get('/api/test/fail', async () => {
    throw new Error('forced failure (test route)');
  });
  // In an area API keys can be given ('system'): a forced failure and a known slow answer.
  app.get('/api/system/test/fail', async () => {
    throw new Error('forced failure (test route)');
  });
  app.get('/api/system/test/slow', async () => {
    await new Promise((r) => setTimeout(r, 150));
    return { slow: true };
  });
};

interface KeyFigures {
  window: string;
  requestCount: number;
  errorCount: number;
  clientErrorCount: number;
  rateLimitedCount: number;
  errorRate: number | null;
  averageResponseTime: number | null;
  p50: number | null;
  p95: number | null;
  p99: number | null;
}
interface KeyRow {
  id: number;
  name: string;
  lastUsedAt: string | null;
  currentMinute: number;
  currentHour: number;
  rateLimited: boolean;
  figures: KeyFigures;
}

describe.each(dialects())('API monitoring on %s', (dialect) => {
  let t: TestContext;
  // A second server process on the same database (what another worker or instance is).
  let second: FastifyInstance;
  let secondDb: DatabaseHandle;
  beforeAll(async () => {
    t = await startTestApp(dialect, { testRoutes: failRoute });
    secondDb = openDatabase({ databaseUrl: t.deps.database.postgresUrl, dataDir: t.dataDir });
    second = await buildApp({ config: t.deps.config, database: secondDb, host: t.deps.host });
  });
  afterAll(async () => {
    await second.close();
    await secondDb.close();
    await t.close();
  });

  const stats = async (window = '5m') => {
    const res = await t.call({ url: `/api/api-monitoring/stats?window=${window}` });
    expect(res.statusCode).toBe(200);
    return res.json<Stats>();
  };
  const onSecond = (url: string, token = t.token, method: 'GET' | 'POST' = 'GET', payload?: object) =>
    second.inject({
      method,
      url,
      headers: { authorization: `Bearer ${token}` },
      ...(payload ? { payload } : {}),
    });
  const resetFigures = async () => {
    await stats(); // flushes this process's counts
    const db = t.deps.database.db;
    await db.deleteFrom('api_stat_minutes').execute();
    await db.deleteFrom('api_recent_requests').execute();
  };
  const login = async (email: string, password: string) => {
    const res = await t.app.inject({ method: 'POST', url: '/auth/login', payload: { email, password } });
    return res.json<{ api_key: string }>().api_key;
  };

  it('7 forced 500s and 3 404s in 100 requests: 7.0 % errors and 3.0 % client errors; percentiles and routes', async () => {
    await resetFigures();
    const codes: number[] = [];
    for (let i = 0; i < 100; i++) {
      const url = i < 7 ? '/api/test/fail' : i < 10 ? '/api/jobs/999999' : '/api/jobs';
      codes.push((await t.call({ url })).statusCode);
    }
    expect(codes.filter((c) => c === 500)).toHaveLength(7);
    expect(codes.filter((c) => c === 404)).toHaveLength(3);
    const s = await stats();
    expect(s).toMatchObject({
      requestCount: 100,
      errorCount: 7,
      clientErrorCount: 3,
      errorRate: 7,
      clientErrorRate: 3,
    });
    expect(s.p50).not.toBeNull();
    expect(s.p50!).toBeLessThanOrEqual(s.p95!);
    expect(s.p95!).toBeLessThanOrEqual(s.p99!);
    expect(s.averageResponseTime).toBeGreaterThan(0);
    expect(s.routes.find((r) => r.route === '/api/test/fail')).toMatchObject({
      requestCount: 7,
      errorCount: 7,
    });
    expect(s.routes.find((r) => r.route === '/api/jobs')).toMatchObject({ requestCount: 90, errorCount: 0 });
    expect(s.recent).toHaveLength(30);
    expect(s.recent[0]).toMatchObject({ route: '/api/jobs', status: 200 });
    // Nothing was eligible for the cache: no hit rate.
    expect(s.cacheHitRate).toBeNull();
  });

  it('the page polling, /metrics, the events stream and static files leave the counts alone; other workers count', async () => {
    await resetFigures();
    for (let i = 0; i < 5; i++) {
      await t.call({ url: '/api/api-monitoring/stats' });
      await t.call({ url: '/api/api-monitoring/rate-limit' });
      await t.call({ url: '/api/api-monitoring/cache' });
      await t.app.inject({ url: '/metrics' });
      await t.app.inject({ url: '/assets/nothing.js' });
    }
    expect((await stats()).requestCount).toBe(0);
    // Requests answered by another process are in the same figures once it flushed (or at once when asked).
    for (let i = 0; i < 4; i++) expect((await onSecond('/api/jobs')).statusCode).toBe(200);
    await second.inject({ url: '/metrics' }); // flushes the second process
    const s = await stats();
    expect(s.requestCount).toBe(4);
    // /metrics sums the processes too.
    const text = (await t.app.inject({ url: '/metrics' })).body;
    const line = text
      .split('\n')
      .find((l) => l.startsWith('mailroom_http_requests_total{method="GET",route="/api/jobs",status="200"}'));
    expect(Number(line?.split(' ').pop())).toBeGreaterThanOrEqual(4 + 90);
  });

  it('rate limit: validation, audit with before/after, exactly 100 of 150 across two processes, no lock-out', async () => {
    const bad = await t.call({
      method: 'PUT',
      url: '/api/api-monitoring/rate-limit',
      payload: { enabled: true, requestsPerMinute: 1001, requestsPerHour: 0 },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain('Requests per minute must be at most 1000');
    await resetFigures();
    const save = await t.call({
      method: 'PUT',
      url: '/api/api-monitoring/rate-limit',
      payload: { enabled: true, requestsPerMinute: 100, requestsPerHour: 10000 },
    });
    expect(save.statusCode).toBe(200);
    const audit = await t.deps.database.db
      .selectFrom('audit_log')
      .selectAll()
      .where('action', '=', 'api.rate-limit.update')
      .where('outcome', '=', 'success')
      .executeTakeFirstOrThrow();
    expect(JSON.parse(audit.details!)).toEqual({
      before: { enabled: false, requestsPerMinute: 1000, requestsPerHour: 10000 },
      after: { enabled: true, requestsPerMinute: 100, requestsPerHour: 10000 },
    });
    // The other process takes the change within its settings poll.
    await new Promise((r) => setTimeout(r, SETTINGS_POLL_MS + 500));
    // Avoid a minute boundary in the middle of the run.
    const inMinute = Date.now() % 60_000;
    if (inMinute > 50_000) await new Promise((r) => setTimeout(r, 61_000 - inMinute));
    let accepted = 0;
    let limited = 0;
    for (let i = 0; i < 150; i++) {
      const res = i % 2 ? await onSecond('/api/jobs') : await t.call({ url: '/api/jobs' });
      if (res.statusCode === 200) accepted++;
      else if (res.statusCode === 429) {
        limited++;
        expect(res.headers['retry-after']).toBeDefined();
      }
    }
    expect({ accepted, limited }).toEqual({ accepted: 100, limited: 50 });
    // The page stays reachable (its calls are never limited), so the limit can be raised again.
    const state = await t.call({ url: '/api/api-monitoring/rate-limit' });
    expect(state.statusCode).toBe(200);
    expect(state.json()).toMatchObject({
      enabled: true,
      requestsPerMinute: 100,
      currentRequests: 100,
      isLimited: true,
      minute: { limit: 100, currentRequests: 100, isLimited: true },
      hour: { limit: 10000, currentRequests: 100, isLimited: false },
    });
    await second.inject({ url: '/metrics' }); // flushes the second process
    expect((await stats()).rateLimitedCount).toBe(50);
    const raise = await t.call({
      method: 'PUT',
      url: '/api/api-monitoring/rate-limit',
      payload: { enabled: false, requestsPerMinute: 1000, requestsPerHour: 10000 },
    });
    expect(raise.statusCode).toBe(200);
    expect((await t.call({ url: '/api/jobs' })).statusCode).toBe(200);
    await new Promise((r) => setTimeout(r, SETTINGS_POLL_MS + 500));
    expect((await onSecond('/api/jobs')).statusCode).toBe(200);
  });

  it('response cache: misses then hits per principal; a write shows on both processes; revoked session 401; Clear', async () => {
    await resetFigures();
    await addAdmin(t.deps.database.db, 'second@example.com', 'second-admin-password');
    const other = await login('second@example.com', 'second-admin-password');
    const get = (token: string, app: FastifyInstance = t.app) =>
      app.inject({ url: '/api/mail/users?limit=50', headers: { authorization: `Bearer ${token}` } });
    const a1 = await get(t.token);
    const b1 = await get(other);
    const a2 = await get(t.token);
    const b2 = await get(other);
    expect([a1, b1, a2, b2].map((r) => r.headers['x-cache'])).toEqual(['MISS', 'MISS', 'HIT', 'HIT']);
    expect(a2.body).toBe(a1.body);
    expect(a2.headers['x-total-count']).toBe(a1.headers['x-total-count']);
    let cache = (await t.call({ url: '/api/api-monitoring/cache' })).json<{
      stats: Record<string, number | null>;
    }>();
    expect(cache.stats).toMatchObject({ hits: 2, misses: 2, hitRate: 50 });
    expect(cache.stats.size).toBeGreaterThanOrEqual(2);
    // Fill the second process's cache too, then write through the first.
    expect((await get(t.token, second)).headers['x-cache']).toBe('MISS');
    expect((await get(t.token, second)).headers['x-cache']).toBe('HIT');
    const add = await t.call({
      method: 'POST',
      url: '/api/mail/users/add',
      payload: {
        email: 'cached@example.org',
        password: 'cached-password-1',
        quota: 1024 * 1024,
        createDomain: true,
      },
    });
    expect(add.statusCode).toBe(200);
    for (const app of [t.app, second]) {
      const res = await get(t.token, app);
      expect(res.headers['x-cache']).toBe('MISS');
      expect(res.json<{ email: string }[]>().map((m) => m.email)).toContain('cached@example.org');
    }
    // A revoked session is refused before the cache is looked at.
    const third = await login(ADMIN.email, ADMIN.password);
    expect((await get(third)).headers['x-cache']).toBe('HIT');
    await t.app.inject({
      method: 'POST',
      url: '/auth/logout',
      headers: { authorization: `Bearer ${third}` },
    });
    expect((await get(third)).statusCode).toBe(401);
    // Never cached: the audit log, the session's own answers.
    const audit1 = await t.call({ url: '/api/audit' });
    expect(audit1.headers['x-cache']).toBeUndefined();
    // Clear empties every process.
    expect((await get(t.token, second)).headers['x-cache']).toBe('HIT');
    const clear = await t.call({ method: 'POST', url: '/api/api-monitoring/cache/clear' });
    expect(clear.statusCode).toBe(200);
    expect((await get(t.token)).headers['x-cache']).toBe('MISS');
    await new Promise((r) => setTimeout(r, SETTINGS_POLL_MS + 500));
    expect((await get(t.token, second)).headers['x-cache']).toBe('MISS');
    cache = (await t.call({ url: '/api/api-monitoring/cache' })).json();
    expect(cache.stats.hits).toBeGreaterThanOrEqual(5);
  });

  it('cache settings: the spec limits, audited; off means bypass', async () => {
    for (const payload of [
      { enabled: true, ttl: 120, maxSize: 100 },
      { enabled: true, ttl: 300, maxSize: 5 },
      { enabled: true, ttl: 300, maxSize: 1001 },
    ]) {
      const res = await t.call({ method: 'PUT', url: '/api/api-monitoring/cache', payload });
      expect(res.statusCode).toBe(400);
    }
    const bad = await t.call({
      method: 'PUT',
      url: '/api/api-monitoring/cache',
      payload: { enabled: true, ttl: 300, maxSize: 5 },
    });
    expect(bad.body).toContain('Max size must be at least 10');
    const off = await t.call({
      method: 'PUT',
      url: '/api/api-monitoring/cache',
      payload: { enabled: false, ttl: 600, maxSize: 10 },
    });
    expect(off.statusCode).toBe(200);
    expect(off.json()).toMatchObject({ config: { enabled: false, ttl: 600, maxSize: 10 } });
    expect((await t.call({ url: '/api/mail/users' })).headers['x-cache']).toBe('BYPASS');
    const audit = await t.deps.database.db
      .selectFrom('audit_log')
      .select('details')
      .where('action', '=', 'api.cache.update')
      .where('outcome', '=', 'success')
      .executeTakeFirstOrThrow();
    expect(JSON.parse(audit.details!)).toEqual({
      before: { enabled: true, ttl: 300, maxSize: 100 },
      after: { enabled: false, ttl: 600, maxSize: 10 },
    });
  });

  it('API keys: shown once, stored hashed, scoped, audited under their name, revocable; /metrics protected', async () => {
    const create = (payload: object) => t.call({ method: 'POST', url: '/api/api-monitoring/keys', payload });
    const bad = await create({
      name: '',
      access: 'read',
      areas: [],
      domains: [],
      expiresInDays: 3,
      allowedAddresses: ['x'],
    });
    expect(bad.statusCode).toBe(400);
    const made = await create({
      name: 'ci-reader',
      access: 'read',
      areas: ['mail'],
      domains: [],
      expiresInDays: 30,
      allowedAddresses: [],
    });
    expect(made.statusCode).toBe(200);
    const { token, key } = made.json<{
      token: string;
      key: { id: number; prefix: string; status: string };
    }>();
    expect(token).toMatch(/^mrk_/);
    expect(key.status).toBe('active');
    expect(token.startsWith(key.prefix)).toBe(true);
    const row = await t.deps.database.db
      .selectFrom('api_keys')
      .selectAll()
      .where('id', '=', key.id)
      .executeTakeFirstOrThrow();
    expect(row.token_hash).not.toContain(token);
    expect(
      JSON.stringify(await t.call({ url: '/api/api-monitoring/keys' }).then((r) => r.json())),
    ).not.toContain(token);
    expect(
      (
        await create({
          name: 'ci-reader',
          access: 'read',
          areas: ['mail'],
          domains: [],
          expiresInDays: 30,
          allowedAddresses: [],
        })
      ).statusCode,
    ).toBe(409);

    const withKey = (url: string, method: 'GET' | 'POST' = 'GET', extra: object = {}) =>
      t.app.inject({ method, url, headers: { authorization: `Bearer ${token}` }, ...extra });
    expect((await withKey('/api/mail/users')).statusCode).toBe(200);
    expect(
      (
        await withKey('/api/mail/users/add', 'POST', {
          payload: { email: 'k@example.org', password: 'key-password-1', quota: 1 },
        })
      ).statusCode,
    ).toBe(403);
    expect((await withKey('/api/dns/zones')).statusCode).toBe(403);
    expect((await withKey('/api/accounts')).statusCode).toBe(403);
    expect((await withKey('/api/api-monitoring/keys')).statusCode).toBe(403);
    const audit = await t.deps.database.db
      .selectFrom('audit_log')
      .selectAll()
      .where('actor', '=', 'api-key:ci-reader')
      .execute();
    expect(audit.length).toBe(5);
    expect(audit.map((a) => a.outcome).sort()).toEqual([
      'failure',
      'failure',
      'failure',
      'failure',
      'success',
    ]);
    const listed = (await t.call({ url: '/api/api-monitoring/keys' })).json<{
      keys: { name: string; requests: number; lastUsedAt: string | null }[];
    }>();
    expect(listed.keys.find((k) => k.name === 'ci-reader')).toMatchObject({
      requests: 5,
      lastUsedAt: expect.any(String),
    });

    // Allowed addresses.
    const fenced = (
      await create({
        name: 'fenced',
        access: 'read-write',
        areas: ['mail'],
        domains: [],
        expiresInDays: 7,
        allowedAddresses: ['10.0.0.0/8'],
      })
    ).json<{ token: string }>().token;
    const from = (ip: string) =>
      t.app.inject({
        url: '/api/mail/users',
        remoteAddress: ip,
        headers: { authorization: `Bearer ${fenced}` },
      });
    expect((await from('127.0.0.1')).statusCode).toBe(403);
    expect((await from('10.1.2.3')).statusCode).toBe(200);

    // Revoked: refused at once.
    expect(
      (await t.call({ method: 'POST', url: `/api/api-monitoring/keys/${key.id}/revoke` })).statusCode,
    ).toBe(200);
    expect((await withKey('/api/mail/users')).statusCode).toBe(401);

    // /metrics: open by default; protected, it needs a metrics key or an allowed address.
    expect((await t.app.inject({ url: '/metrics' })).statusCode).toBe(200);
    const scraper = (
      await create({
        name: 'prometheus',
        access: 'read',
        areas: ['metrics'],
        domains: [],
        expiresInDays: 365,
        allowedAddresses: [],
      })
    ).json<{ token: string }>().token;
    const protect = await t.call({
      method: 'PUT',
      url: '/api/api-monitoring/metrics-access',
      payload: { protected: true, allowedAddresses: ['192.0.2.7'] },
    });
    expect(protect.statusCode).toBe(200);
    expect((await t.app.inject({ url: '/metrics' })).statusCode).toBe(401);
    expect(
      (
        await t.app.inject({
          url: '/metrics',
          headers: { authorization: `Bearer ${fenced}` },
          remoteAddress: '10.0.0.1',
        })
      ).statusCode,
    ).toBe(401);
    expect(
      (await t.app.inject({ url: '/metrics', headers: { authorization: `Bearer ${scraper}` } })).statusCode,
    ).toBe(200);
    expect((await t.app.inject({ url: '/metrics', remoteAddress: '192.0.2.7' })).statusCode).toBe(200);
    // The other process follows within its settings poll.
    await new Promise((r) => setTimeout(r, SETTINGS_POLL_MS + 500));
    expect((await second.inject({ url: '/metrics' })).statusCode).toBe(401);
    await t.call({
      method: 'PUT',
      url: '/api/api-monitoring/metrics-access',
      payload: { protected: false, allowedAddresses: [] },
    });
    expect((await t.app.inject({ url: '/metrics' })).statusCode).toBe(200);
  });

  it('API keys: per-key figures over a window from both processes; errors, 4xx and 429s of that key only; percentiles from its histogram', async () => {
    const create = async (name: string, areas: string[]) => {
      const res = await t.call({
        method: 'POST',
        url: '/api/api-monitoring/keys',
        payload: { name, access: 'read', areas, domains: [], expiresInDays: 30, allowedAddresses: [] },
      });
      expect(res.statusCode).toBe(200);
      return res.json<{ token: string; key: KeyRow }>();
    };
    const a = await create('figures-a', ['mail', 'system', 'metrics']);
    const b = await create('figures-b', ['system']);
    const idle = await create('figures-idle', ['mail']);
    const limitedKey = await create('figures-limited', ['mail']);
    // A new key has no figures yet: a count of 0, no rates, no times.
    expect(a.key.figures).toMatchObject({ requestCount: 0, errorRate: null, p50: null, p99: null });

    const as = (token: string, url: string, app: FastifyInstance = t.app) =>
      app.inject({ url, headers: { authorization: `Bearer ${token}` } });
    for (let i = 0; i < 6; i++) expect((await as(a.token, '/api/mail/users')).statusCode).toBe(200);
    for (let i = 0; i < 3; i++) expect((await as(a.token, '/api/mail/users', second)).statusCode).toBe(200);
    for (let i = 0; i < 2; i++) expect((await as(a.token, '/api/system/test/fail')).statusCode).toBe(500);
    expect((await as(a.token, '/api/dns/zones')).statusCode).toBe(403);
    for (let i = 0; i < 4; i++) expect((await as(b.token, '/api/system/test/slow')).statusCode).toBe(200);
    // Sessions (the page's own polling among them) are nobody's key.
    for (let i = 0; i < 3; i++) {
      await t.call({ url: '/api/api-monitoring/keys' });
      await t.call({ url: '/api/api-monitoring/stats' });
      await t.call({ url: '/api/mail/users' });
    }
    // Reading the statistics there flushes the second process (its /metrics may still be protected).
    expect((await onSecond('/api/api-monitoring/stats')).statusCode).toBe(200);

    const list = async (query = '') => {
      const res = await t.call({ url: `/api/api-monitoring/keys${query}` });
      expect(res.statusCode).toBe(200);
      const body = res.json<{
        keys: KeyRow[];
        rateLimit: { enabled: boolean; requestsPerMinute: number; requestsPerHour: number };
      }>();
      return { ...body, key: (name: string) => body.keys.find((k) => k.name === name)! };
    };
    const day = await list();
    expect(day.key('figures-a').figures).toMatchObject({
      window: '24h',
      requestCount: 12,
      errorCount: 2,
      clientErrorCount: 1,
      rateLimitedCount: 0,
      errorRate: 16.67,
    });
    expect(day.key('figures-a').lastUsedAt).not.toBeNull();
    expect(day.key('figures-b').figures).toMatchObject({
      requestCount: 4,
      errorCount: 0,
      clientErrorCount: 0,
    });
    expect(day.key('figures-idle').figures).toEqual({
      window: '24h',
      requestCount: 0,
      errorCount: 0,
      clientErrorCount: 0,
      rateLimitedCount: 0,
      errorRate: null,
      averageResponseTime: null,
      p50: null,
      p95: null,
      p99: null,
    });
    expect(day.key('figures-idle')).toMatchObject({ id: idle.key.id, lastUsedAt: null });
    // The slow route's 150 ms are in the key's histogram; the percentiles are read from its sum.
    const bf = day.key('figures-b').figures;
    expect(bf.p50).toBeGreaterThanOrEqual(128);
    expect(bf.averageResponseTime).toBeGreaterThanOrEqual(150);
    const rows = await t.deps.database.db
      .selectFrom('api_key_stat_minutes')
      .selectAll()
      .where('key_id', '=', b.key.id)
      .execute();
    const summed = BUCKET_COLUMNS.map((c) => rows.reduce((n, r) => n + Number(r[c as `h${number}`]), 0));
    const max = Math.max(...rows.map((r) => Number(r.max_ms)));
    expect(summed.reduce((x, y) => x + y, 0)).toBe(4);
    for (const [q, v] of [
      [0.5, bf.p50],
      [0.95, bf.p95],
      [0.99, bf.p99],
    ] as const)
      expect(v).toBe(Math.round(quantile(summed, q, max)! * 100) / 100);
    expect(day.key('figures-a').figures.p50!).toBeLessThan(bf.p50!);

    // A protected /metrics checks the key: the scrape is that key's call (refused too).
    const metricsAccess = (on: boolean) =>
      t.call({
        method: 'PUT',
        url: '/api/api-monitoring/metrics-access',
        payload: { protected: on, allowedAddresses: [] },
      });
    expect((await metricsAccess(true)).statusCode).toBe(200);
    expect((await as(a.token, '/metrics')).statusCode).toBe(200);
    expect((await as(b.token, '/metrics')).statusCode).toBe(401);
    expect((await metricsAccess(false)).statusCode).toBe(200);
    const scraped = await list();
    expect(scraped.key('figures-a').figures).toMatchObject({ requestCount: 13, errorCount: 2 });
    expect(scraped.key('figures-b').figures).toMatchObject({ requestCount: 5, clientErrorCount: 1 });

    // The window is the page's: 5 minutes hold the same calls; an unknown window is refused.
    expect((await list('?window=5m')).key('figures-a').figures).toMatchObject({
      window: '5m',
      requestCount: 13,
    });
    const bad = await t.call({ url: '/api/api-monitoring/keys?window=2d' });
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain('window');

    // The key's own buckets against the limits: 3 a minute admits 3 of 5, the 2 others are its 429s.
    const limit = (enabled: boolean, requestsPerMinute: number) =>
      t.call({
        method: 'PUT',
        url: '/api/api-monitoring/rate-limit',
        payload: { enabled, requestsPerMinute, requestsPerHour: 10000 },
      });
    const inMinute = Date.now() % 60_000;
    if (inMinute > 50_000) await new Promise((r) => setTimeout(r, 61_000 - inMinute));
    expect((await limit(true, 3)).statusCode).toBe(200);
    const codes: number[] = [];
    for (let i = 0; i < 5; i++) codes.push((await as(limitedKey.token, '/api/mail/users')).statusCode);
    expect(codes).toEqual([200, 200, 200, 429, 429]);
    const limited = await list();
    expect(limited.rateLimit).toEqual({ enabled: true, requestsPerMinute: 3, requestsPerHour: 10000 });
    expect(limited.key('figures-limited')).toMatchObject({
      currentMinute: 3,
      currentHour: 3,
      rateLimited: true,
      figures: { requestCount: 5, clientErrorCount: 2, rateLimitedCount: 2, errorCount: 0 },
    });
    // Nobody else's figures moved.
    expect(limited.key('figures-a')).toMatchObject({ rateLimited: false, figures: { requestCount: 13 } });
    expect(limited.key('figures-idle').figures.requestCount).toBe(0);
    expect((await limit(false, 1000)).statusCode).toBe(200);
  });
});
