import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.ts';
import { ADMIN, dialects, startTestApp, type TestContext } from '../harness.ts';

describe.each(dialects())('API rate limit on %s', (dialect) => {
  let t: TestContext;
  beforeAll(async () => {
    t = await startTestApp(dialect, {
      env: { MAILROOM_RATE_LIMIT_SESSION: '5', MAILROOM_RATE_LIMIT_IP: '12' },
    });
  });
  afterAll(async () => t.close());

  it('answers 429 + Retry-After in the error shape once a session used up its window', async () => {
    for (let i = 0; i < 5; i++) {
      expect((await t.call({ url: '/api/mail/domains', remoteAddress: `10.0.0.${i + 1}` })).statusCode).toBe(
        200,
      );
    }
    const res = await t.call({ url: '/api/mail/domains', remoteAddress: '10.0.0.99' });
    expect(res.statusCode).toBe(429);
    const retryAfter = Number(res.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(res.json()).toMatchObject({ code: 'RATE_LIMITED', retryable: true, details: { retryAfter } });
    expect(Date.parse(res.json().timestamp)).not.toBeNaN();
  });

  it('limits one address across sessions and without one, but not other addresses', async () => {
    const ip = '192.0.2.77';
    const codes: number[] = [];
    for (let i = 0; i < 13; i++) {
      codes.push((await t.app.inject({ url: '/auth/status', remoteAddress: ip })).statusCode);
    }
    expect(codes.slice(0, 12).every((c) => c === 200)).toBe(true);
    expect(codes[12]).toBe(429);
    // Signing in again from elsewhere gives a fresh session with its own allowance.
    const login = await t.app.inject({
      method: 'POST',
      url: '/auth/login',
      payload: ADMIN,
      remoteAddress: '192.0.2.78',
    });
    expect(login.statusCode).toBe(200);
    const key = login.json<{ api_key: string }>().api_key;
    const other = await t.app.inject({
      url: '/api/mail/domains',
      headers: { authorization: `Bearer ${key}` },
      remoteAddress: '192.0.2.78',
    });
    expect(other.statusCode).toBe(200);
  });

  it(
    // On SQLite too: each worker process of one server counted alone before (a limit of 100 admitted ~200).
    'shares the counters between instances and workers on one database',
    async () => {
      const second = await buildApp(t.deps);
      try {
        const login = await t.app.inject({
          method: 'POST',
          url: '/auth/login',
          payload: ADMIN,
          remoteAddress: '192.0.2.90',
        });
        const headers = { authorization: `Bearer ${login.json<{ api_key: string }>().api_key}` };
        const codes: number[] = [];
        for (let i = 0; i < 6; i++) {
          const app = i % 2 === 0 ? t.app : second;
          codes.push(
            (await app.inject({ url: '/api/mail/domains', headers, remoteAddress: `192.0.2.${100 + i}` }))
              .statusCode,
          );
        }
        expect(codes).toEqual([200, 200, 200, 200, 200, 429]);
      } finally {
        await second.close();
      }
    },
  );
});
