import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialects, startTestApp, type TestContext } from '../harness.ts';

// The second step of a sign-in (code or passkey) and "Lost my device" are open like the sign-in itself.
const PUBLIC_API = [
  '/auth/login',
  '/auth/logout',
  '/auth/mfa/email-code',
  '/auth/mfa/recovery',
  '/auth/mfa/verify',
  '/auth/mfa/webauthn-options',
  '/auth/status',
];
// Webhooks a Git server calls (issue 20, auto deploy): no session on purpose, authenticated by the
// HMAC signature of their body instead (still 401 without it, below).
const SIGNED_WEBHOOKS = ['/api/web/hooks/applications/:name'];
// Routes outside /api and /auth are open to anyone: each must be listed here on purpose.
const OPEN_NON_API = ['/metrics'];

const isApi = (url: string) => url === '/api' || url.startsWith('/api/');
/** A concrete URL for a route pattern: `:name` and `*` become harmless values. */
const concrete = (url: string) => url.replace(/:[A-Za-z0-9_]+/g, 'x').replace(/\*/g, 'x');

describe.each(dialects())('every registered route on %s', (dialect) => {
  let t: TestContext;
  beforeAll(async () => {
    t = await startTestApp(dialect);
  });
  afterAll(async () => t.close());

  it('collects the routes the app registered', () => {
    const keys = t.app.routeList.map((r) => `${r.method} ${r.url}`);
    for (const k of [
      'POST /auth/login',
      'GET /api/system/status',
      'GET /api/audit',
      'GET /api/docs',
      'GET /metrics',
    ]) {
      expect(keys).toContain(k);
    }
  });

  it('opens exactly the sign-in, its second step, logout and status without a session', () => {
    const publicApi = new Set(
      t.app.routeList
        .filter((r) => r.public && (isApi(r.url) || r.url.startsWith('/auth')))
        .map((r) => r.url),
    );
    expect([...publicApi].sort()).toEqual([...PUBLIC_API, ...SIGNED_WEBHOOKS].sort());
    const authRoutes = new Set(t.app.routeList.filter((r) => r.url.startsWith('/auth')).map((r) => r.url));
    expect([...authRoutes].sort()).toEqual(PUBLIC_API);
  });

  it('has no route outside /api and /auth that is not known to be open', () => {
    const outside = t.app.routeList.filter((r) => !isApi(r.url) && !r.url.startsWith('/auth/'));
    for (const r of outside) {
      expect(
        OPEN_NON_API,
        `${r.method} ${r.url} is open to anyone: add it to OPEN_NON_API if that is intended`,
      ).toContain(r.url);
    }
  });

  it('answers 401 to every non-public /api route without a key, in both URL forms', async () => {
    const guarded = t.app.routeList.filter((r) => isApi(r.url));
    expect(guarded.length).toBeGreaterThanOrEqual(6);
    for (const r of guarded) {
      expect(r.public, `${r.method} ${r.url} must not be public`).toBe(SIGNED_WEBHOOKS.includes(r.url));
      const url = concrete(r.url);
      const viaIndexPhp = `/api/index.php?path=${encodeURIComponent(url.slice('/api/'.length))}`;
      for (const [target, headers] of [
        [url, {}],
        [url, { authorization: 'Bearer not-a-real-session-key-000000000000000' }],
        [url, { authorization: 'Basic YWRtaW46YWRtaW4=' }],
        [url, { cookie: 'mailroom_session=forged' }],
        [viaIndexPhp, {}],
      ] as const) {
        const res = await t.app.inject({
          method: r.method as 'GET',
          url: target,
          headers,
          ...(r.method === 'GET' || r.method === 'HEAD' ? {} : { payload: {} }),
        });
        // A signed webhook sent with a (forged) session cookie is refused as cross-site first (403).
        if (SIGNED_WEBHOOKS.includes(r.url) && 'cookie' in headers) {
          expect(res.statusCode, `${r.method} ${target} with a cookie`).toBe(403);
          continue;
        }
        expect(res.statusCode, `${r.method} ${target} ${JSON.stringify(headers)}`).toBe(401);
        if (r.method !== 'HEAD') expect(res.json()).toMatchObject({ code: 'UNAUTHORIZED', retryable: false });
      }
    }
  });

  it('cannot be walked around with percent-encoded or oddly shaped paths', async () => {
    const encodeAll = (p: string) =>
      p
        .split('/')
        .map((seg) => [...seg].map((c) => `%${c.charCodeAt(0).toString(16).padStart(2, '0')}`).join(''))
        .join('/');
    for (const r of t.app.routeList.filter((x) => isApi(x.url) && x.method === 'GET')) {
      const url = concrete(r.url);
      for (const variant of [
        url.replace(/^\/api\//, '/%61pi/'),
        url.replace(/^\/api\//, '/%61%70%69/'),
        encodeAll(url),
        `${url}/`,
        url.replace(/^\/api\//, '/api/./'),
        url.replace(/^\/api\//, '/api/x/../'),
      ]) {
        const res = await t.app.inject({ url: variant });
        expect(res.statusCode, `GET ${variant} must not be served without a key`).not.toBe(200);
        expect([401, 404], variant).toContain(res.statusCode);
      }
    }
  });

  it('answers 401 to unknown /api paths without a key (nothing is revealed) and 404 with one', async () => {
    expect((await t.app.inject({ url: '/api/no/such/thing' })).statusCode).toBe(401);
    const res = await t.call({ url: '/api/no/such/thing' });
    expect(res.statusCode).toBe(404);
    expect(res.json().code).toBe('NOT_FOUND');
  });

  it('never answers 500 to malformed input on any route', async () => {
    for (const r of t.app.routeList.filter((x) => isApi(x.url) || x.url.startsWith('/auth/'))) {
      const url = concrete(r.url);
      if (r.method === 'GET') {
        const res = await t.call({
          url: `${url}?limit=abc&offset=-1&q=${'%FF'.repeat(3)}&sort=1;drop&action=${'x'.repeat(5000)}&name=%00`,
        });
        expect(res.statusCode, `GET ${url}`).toBeLessThan(500);
        const nul = await t.call({ url: `${concrete(r.url).replace(/\/x(\/|$)/, '/x%00$1')}?q=a%00b` });
        expect(nul.statusCode, `GET ${url} with NUL`).toBeLessThan(500);
      } else if (r.method !== 'HEAD') {
        const res = await t.call({
          method: r.method,
          url,
          headers: { 'content-type': 'application/json' },
          payload: '{"unterminated": ',
        });
        expect(res.statusCode, `${r.method} ${url} with broken JSON`).toBeGreaterThanOrEqual(400);
        expect(res.statusCode, `${r.method} ${url} with broken JSON`).toBeLessThan(500);
        const nul = await t.call({
          method: r.method,
          url,
          payload: { name: 'a\u0000', email: 'a\u0000@b.co' },
        });
        expect(nul.statusCode, `${r.method} ${url} with NUL`).toBeGreaterThanOrEqual(400);
        expect(nul.statusCode, `${r.method} ${url} with NUL`).toBeLessThan(500);
      }
    }
  });
});
