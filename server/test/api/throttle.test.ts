import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordFailure, retryAfterSeconds } from '../../src/features/auth/login-throttle.ts';
import { ADMIN, dialects, startTestApp, type TestContext } from '../harness.ts';

const attempt = (t: TestContext, email: string, password: string, remoteAddress: string) =>
  t.app.inject({ method: 'POST', url: '/auth/login', payload: { email, password }, remoteAddress });

describe.each(dialects())('sign-in throttling on %s (default policy)', (dialect) => {
  let t: TestContext;
  beforeAll(async () => {
    t = await startTestApp(dialect);
  });
  afterAll(async () => t.close());

  it('answers 429 with Retry-After after 5 failures for one account, even from other addresses', async () => {
    for (let i = 0; i < 5; i++) {
      const res = await attempt(t, ADMIN.email, 'wrong-password', `203.0.113.${i + 1}`);
      expect(res.statusCode).toBe(401);
    }
    // The right password does not help while the account is throttled.
    const res = await attempt(t, ADMIN.email, ADMIN.password, '203.0.113.99');
    expect(res.statusCode).toBe(429);
    const retryAfter = Number(res.headers['retry-after']);
    expect(Number.isInteger(retryAfter)).toBe(true);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(15 * 60);
    const body = res.json();
    expect(body).toMatchObject({ code: 'RATE_LIMITED', retryable: true, details: { retryAfter } });
    expect(body.message).toBe(`Too many failed sign-ins. Try again in ${retryAfter} seconds.`);
    expect(Date.parse(body.timestamp)).not.toBeNaN();

    const { entries } = (await t.call({ url: '/api/audit?action=auth.login&limit=1' })).json();
    expect(entries[0]).toMatchObject({ actor: ADMIN.email, ip: '203.0.113.99', outcome: 'failure' });
    expect(JSON.parse(entries[0].details)).toEqual({ reason: 'throttled' });
  });

  it('does not throttle other accounts for one account’s failures', async () => {
    const res = await attempt(t, 'other@example.com', 'whatever-password', '203.0.113.50');
    expect(res.statusCode).toBe(401);
  });
});

describe.each(dialects())('sign-in throttling on %s (small policy)', (dialect) => {
  let t: TestContext;
  beforeAll(async () => {
    t = await startTestApp(dialect, { throttle: { windowMs: 60_000, maxPerAccount: 3, maxPerIp: 5 } });
  });
  afterAll(async () => t.close());

  it('limits one client address across many accounts', async () => {
    for (let i = 0; i < 5; i++) {
      expect((await attempt(t, `guess${i}@example.com`, 'wrong-password', '198.51.100.20')).statusCode).toBe(
        401,
      );
    }
    const blocked = await attempt(t, 'fresh@example.com', 'wrong-password', '198.51.100.20');
    expect(blocked.statusCode).toBe(429);
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(blocked.headers['retry-after'])).toBeLessThanOrEqual(60);
    // The same account from another address is still judged on its merits.
    expect((await attempt(t, 'fresh@example.com', 'wrong-password', '198.51.100.21')).statusCode).toBe(401);
  });

  it('clears an account’s failures after a good sign-in', async () => {
    let n = 20;
    const ip = () => `192.0.2.${n++}`;
    expect((await attempt(t, ADMIN.email, 'wrong-password', ip())).statusCode).toBe(401);
    expect((await attempt(t, ADMIN.email, 'wrong-password', ip())).statusCode).toBe(401);
    expect((await attempt(t, ADMIN.email, ADMIN.password, ip())).statusCode).toBe(200);
    expect((await attempt(t, ADMIN.email, 'wrong-password', ip())).statusCode).toBe(401);
    expect((await attempt(t, ADMIN.email, 'wrong-password', ip())).statusCode).toBe(401);
    expect((await attempt(t, ADMIN.email, ADMIN.password, ip())).statusCode).toBe(200);
  });

  it('lets the window pass: the wait shrinks and ends', async () => {
    const policy = { windowMs: 60_000, maxPerAccount: 3, maxPerIp: 5 };
    const db = t.deps.database.db;
    const t0 = Date.now() - 1_000_000;
    for (let i = 0; i < 3; i++) await recordFailure(db, 'window@example.com', null, t0 + i * 1000);
    expect(await retryAfterSeconds(db, policy, 'window@example.com', null, t0 + 2000)).toBe(58);
    expect(await retryAfterSeconds(db, policy, 'window@example.com', null, t0 + 30_000)).toBe(30);
    expect(await retryAfterSeconds(db, policy, 'window@example.com', null, t0 + 60_001)).toBe(0);
  });
});
