import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DEFAULT_THROTTLE,
  pairDelayMs,
  recordFailure,
  retryAfterSeconds,
} from '../../src/features/auth/login-throttle.service.ts';
import { ADMIN, dialects, startTestApp, type TestContext } from '../harness.ts';

const attempt = (t: TestContext, email: string, password: string, remoteAddress: string) =>
  t.app.inject({ method: 'POST', url: '/auth/login', payload: { email, password }, remoteAddress });

async function evaluatedFailures(t: TestContext, actor: string): Promise<number> {
  const { entries } = (await t.call({ url: '/api/audit?action=auth.login&limit=500' })).json<{
    entries: { actor: string; details: string | null }[];
  }>();
  return entries.filter((e) => e.actor === actor && e.details?.includes('bad credentials')).length;
}

describe.each(dialects())('sign-in throttling on %s (default policy)', (dialect) => {
  let t: TestContext;
  beforeAll(async () => {
    t = await startTestApp(dialect);
  });
  afterAll(async () => t.close());

  it('throttles one address for one account with 429 + Retry-After, but not the right password from elsewhere', async () => {
    for (let i = 0; i < 5; i++) {
      const res = await attempt(t, ADMIN.email, 'wrong-password', '203.0.113.7');
      expect(res.statusCode).toBe(401);
    }
    const res = await attempt(t, ADMIN.email, ADMIN.password, '203.0.113.7');
    expect(res.statusCode).toBe(429);
    const retryAfter = Number(res.headers['retry-after']);
    expect(Number.isInteger(retryAfter)).toBe(true);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(DEFAULT_THROTTLE.baseDelayMs / 1000);
    const body = res.json();
    expect(body).toMatchObject({ code: 'RATE_LIMITED', retryable: true, details: { retryAfter } });
    expect(body.message).toBe(`Too many failed sign-ins. Try again in ${retryAfter} seconds.`);
    expect(Date.parse(body.timestamp)).not.toBeNaN();

    const { entries } = (await t.call({ url: '/api/audit?action=auth.login&limit=1' })).json();
    expect(entries[0]).toMatchObject({ actor: ADMIN.email, ip: '203.0.113.7', outcome: 'failure' });
    expect(JSON.parse(entries[0].details)).toEqual({ reason: 'throttled' });

    // The stranger's address does not lock the administrator out: another address signs in.
    expect((await attempt(t, ADMIN.email, ADMIN.password, '198.51.100.9')).statusCode).toBe(200);
  });

  it('evaluates at most 5 of 50 parallel wrong passwords for one account', async () => {
    const victim = 'parallel@example.com';
    const answers = await Promise.all(
      Array.from({ length: 50 }, () => attempt(t, victim, 'wrong-password', '203.0.113.60')),
    );
    const codes = answers.map((a) => a.statusCode);
    expect(codes.filter((c) => c === 401).length).toBeLessThanOrEqual(5);
    expect(codes.filter((c) => c !== 401 && c !== 429)).toEqual([]);
    expect(await evaluatedFailures(t, victim)).toBeLessThanOrEqual(5);
  });

  it('does not throttle other accounts for one account’s failures', async () => {
    const res = await attempt(t, 'other@example.com', 'whatever-password', '203.0.113.50');
    expect(res.statusCode).toBe(401);
  });
});

describe.each(dialects())('sign-in throttling on %s (small policy)', (dialect) => {
  const policy = { windowMs: 60_000, freePerPair: 2, baseDelayMs: 10_000, maxPerAccount: 4, maxPerIp: 5 };
  let t: TestContext;
  beforeAll(async () => {
    t = await startTestApp(dialect, { throttle: policy });
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

  it('has a per-account ceiling across addresses', async () => {
    for (let i = 0; i < 4; i++) {
      expect(
        (await attempt(t, 'ceiling@example.com', 'wrong-password', `192.0.2.${100 + i}`)).statusCode,
      ).toBe(401);
    }
    expect((await attempt(t, 'ceiling@example.com', 'wrong-password', '192.0.2.200')).statusCode).toBe(429);
  });

  it('clears the pair’s failures after a good sign-in', async () => {
    const ip = '192.0.2.20';
    expect((await attempt(t, ADMIN.email, 'wrong-password', ip)).statusCode).toBe(401);
    expect((await attempt(t, ADMIN.email, ADMIN.password, ip)).statusCode).toBe(200);
    expect((await attempt(t, ADMIN.email, 'wrong-password', ip)).statusCode).toBe(401);
    expect((await attempt(t, ADMIN.email, 'wrong-password', ip)).statusCode).toBe(401);
    expect((await attempt(t, ADMIN.email, ADMIN.password, ip)).statusCode).toBe(429);
  });

  it('grows the delay with each failure beyond the free ones, up to the window', async () => {
    expect(pairDelayMs(policy, 1)).toBe(0);
    expect(pairDelayMs(policy, 2)).toBe(10_000);
    expect(pairDelayMs(policy, 3)).toBe(20_000);
    expect(pairDelayMs(policy, 4)).toBe(40_000);
    expect(pairDelayMs(policy, 9)).toBe(60_000);
    const db = t.deps.database.db;
    const t0 = Date.now() - 1_000_000;
    const who = 'delay@example.com';
    await recordFailure(db, who, '203.0.113.1', t0);
    await recordFailure(db, who, '203.0.113.1', t0 + 1000);
    expect(await retryAfterSeconds(db, policy, who, '203.0.113.1', t0 + 1000)).toBe(10);
    expect(await retryAfterSeconds(db, policy, who, '203.0.113.1', t0 + 11_000)).toBe(0);
    await recordFailure(db, who, '203.0.113.1', t0 + 11_000);
    expect(await retryAfterSeconds(db, policy, who, '203.0.113.1', t0 + 11_000)).toBe(20);
    // Another address for the same account is not delayed.
    expect(await retryAfterSeconds(db, policy, who, '203.0.113.2', t0 + 11_000)).toBe(0);
    // Once the window has passed, the slate is clean.
    expect(await retryAfterSeconds(db, policy, who, '203.0.113.1', t0 + 72_000)).toBe(0);
  });
});
