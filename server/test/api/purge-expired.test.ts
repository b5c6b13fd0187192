import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { purgeExpired } from '../../src/features/auth/purge-expired.job.ts';
import { hashToken } from '../../src/http/sessions.ts';
import { dialects, startTestApp, type TestContext } from '../harness.ts';

describe.each(dialects())('purge of expired sessions and old attempts on %s', (dialect) => {
  let t: TestContext;
  beforeAll(async () => {
    t = await startTestApp(dialect);
  });
  afterAll(async () => t.close());

  it('removes dead sessions, old sign-in attempts and stale counters; keeps the live ones', async () => {
    const db = t.deps.database.db;
    const now = Date.now();
    const admin = await db.selectFrom('admins').select('id').executeTakeFirstOrThrow();
    const session = (token: string, lastSeen: number, expires: number) => ({
      token_hash: hashToken(token),
      admin_id: admin.id,
      created_at: lastSeen,
      last_seen_at: lastSeen,
      expires_at: expires,
      ip: null,
      user_agent: null,
    });
    await db
      .insertInto('sessions')
      .values([
        session('expired-absolute', now - 1000, now - 1),
        session('expired-idle', now - 31 * 60_000, now + 3_600_000),
        session('still-live', now - 60_000, now + 3_600_000),
      ])
      .execute();
    await db
      .insertInto('login_attempts')
      .values([
        { bucket: 'account:old@example.com', at: now - 25 * 3_600_000 },
        { bucket: 'account:recent@example.com', at: now - 60_000 },
      ])
      .execute();
    await db
      .insertInto('rate_limits')
      .values([
        { bucket: 'ip:198.51.100.1', window_start: now - 2 * 3_600_000, hits: 3 },
        { bucket: 'ip:198.51.100.2', window_start: now - 1000, hits: 3 },
      ])
      .execute();

    const removed = await purgeExpired(db, now);
    expect(removed).toEqual({ sessions: 2, loginAttempts: 1, rateLimits: 1 });

    const tokens = (await db.selectFrom('sessions').select('token_hash').execute()).map((r) => r.token_hash);
    expect(tokens).toContain(hashToken('still-live'));
    expect(tokens).toContain(hashToken(t.token));
    expect(tokens).not.toContain(hashToken('expired-absolute'));
    const buckets = (await db.selectFrom('login_attempts').select('bucket').execute()).map((r) => r.bucket);
    expect(buckets).toEqual(['account:recent@example.com']);
    // The administrator's own session still works.
    expect((await t.call({ url: '/api/mail/domains' })).statusCode).toBe(200);
    // Nothing left to do: a second run removes nothing.
    expect(await purgeExpired(db, now)).toEqual({ sessions: 0, loginAttempts: 0, rateLimits: 0 });
  });
});
