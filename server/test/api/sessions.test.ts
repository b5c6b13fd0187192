import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setAdminPassword } from '../../src/features/auth/admin.service.ts';
import { createSession, hashToken, touchSession } from '../../src/http/sessions.ts';
import { ADMIN, dialects, startTestApp, type TestContext } from '../harness.ts';

describe.each(dialects())('sessions on %s', (dialect) => {
  let t: TestContext;
  beforeAll(async () => {
    t = await startTestApp(dialect);
  });
  afterAll(async () => t.close());

  const signIn = async (password = ADMIN.password): Promise<string> => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/auth/login',
      payload: { email: ADMIN.email, password },
    });
    expect(res.statusCode).toBe(200);
    return res.json<{ api_key: string }>().api_key;
  };
  const read = (token: string) =>
    t.app.inject({ url: '/api/system/status', headers: { authorization: `Bearer ${token}` } });
  const sessionRow = (token: string) =>
    t.deps.database.db
      .selectFrom('sessions')
      .selectAll()
      .where('token_hash', '=', hashToken(token))
      .executeTakeFirst();
  const adminId = async () =>
    (
      await t.deps.database.db
        .selectFrom('admins')
        .select('id')
        .where('email', '=', ADMIN.email)
        .executeTakeFirstOrThrow()
    ).id;

  it('lasts 12 hours at most and 30 minutes idle by default', async () => {
    const token = await signIn();
    const row = await sessionRow(token);
    expect(row!.expires_at - row!.created_at).toBe(12 * 3_600_000);
    const policy = { idleMs: t.deps.config.sessionIdleMs, absoluteMs: t.deps.config.sessionAbsoluteMs };
    expect(policy.idleMs).toBe(30 * 60_000);
    // Used 29 minutes ago: still alive, and the use slides the idle window.
    const now = Date.now();
    await t.deps.database.db
      .updateTable('sessions')
      .set({ last_seen_at: now - 29 * 60_000 })
      .where('id', '=', row!.id)
      .execute();
    expect((await read(token)).statusCode).toBe(200);
    expect((await sessionRow(token))!.last_seen_at).toBeGreaterThanOrEqual(now);
  });

  it('expires after the idle timeout and is deleted on sight', async () => {
    const token = await signIn();
    const row = await sessionRow(token);
    await t.deps.database.db
      .updateTable('sessions')
      .set({ last_seen_at: Date.now() - 30 * 60_000 - 1000 })
      .where('id', '=', row!.id)
      .execute();
    const res = await read(token);
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ code: 'UNAUTHORIZED', retryable: false });
    expect(await sessionRow(token)).toBeUndefined();
    const status = await t.app.inject({ url: '/auth/status', headers: { authorization: `Bearer ${token}` } });
    expect(status.json()).toEqual({ authenticated: false });
  });

  it('expires at the absolute limit however busy it is', async () => {
    const token = await signIn();
    const row = await sessionRow(token);
    await t.deps.database.db
      .updateTable('sessions')
      .set({ last_seen_at: Date.now(), expires_at: Date.now() - 1 })
      .where('id', '=', row!.id)
      .execute();
    expect((await read(token)).statusCode).toBe(401);
  });

  it('slides the idle window on use but never past the absolute end (touchSession clock)', async () => {
    const db = t.deps.database.db;
    const policy = { idleMs: 60_000, absoluteMs: 150_000 };
    const t0 = 1_000_000;
    const token = await createSession(db, policy, await adminId(), { ip: null, userAgent: null }, t0);
    expect(await touchSession(db, policy, token, t0 + 59_000)).toMatchObject({ email: ADMIN.email });
    expect(await touchSession(db, policy, token, t0 + 118_000)).toMatchObject({ email: ADMIN.email });
    // Used again within the idle window, but the absolute end (t0 + 150 s) has come.
    expect(await touchSession(db, policy, token, t0 + 150_000)).toBeNull();
    expect(await touchSession(db, policy, token, t0 + 1)).toBeNull();

    const idle = await createSession(db, policy, await adminId(), { ip: null, userAgent: null }, t0);
    expect(await touchSession(db, policy, idle, t0 + 60_000)).toBeNull();
  });

  it('logout revokes the key and clears the cookie', async () => {
    const token = await signIn();
    const out = await t.app.inject({
      method: 'POST',
      url: '/auth/logout',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(out.statusCode).toBe(200);
    expect(out.json()).toEqual({ success: true });
    expect(String(out.headers['set-cookie'])).toMatch(/mailroom_session=;.*Max-Age=0/);
    expect(await sessionRow(token)).toBeUndefined();
    expect((await read(token)).statusCode).toBe(401);
    const { entries } = (await t.call({ url: '/api/audit?action=auth.logout&limit=1' })).json();
    expect(entries[0]).toMatchObject({ actor: ADMIN.email, action: 'auth.logout', outcome: 'success' });
    // Logging out again, or without a key, is harmless.
    const again = await t.app.inject({
      method: 'POST',
      url: '/auth/logout',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(again.statusCode).toBe(200);
    expect((await t.app.inject({ method: 'POST', url: '/auth/logout' })).statusCode).toBe(200);
  });

  it('a password change signs the administrator out everywhere', async () => {
    const a = await signIn();
    const b = await signIn();
    expect((await read(a)).statusCode).toBe(200);
    await setAdminPassword(t.deps.database.db, ADMIN.email, 'a-brand-new-password');
    expect((await read(a)).statusCode).toBe(401);
    expect((await read(b)).statusCode).toBe(401);
    const old = await t.app.inject({ method: 'POST', url: '/auth/login', payload: ADMIN });
    expect(old.statusCode).toBe(401);
    const fresh = await signIn('a-brand-new-password');
    expect((await read(fresh)).statusCode).toBe(200);
    await setAdminPassword(t.deps.database.db, ADMIN.email, ADMIN.password);
  });
});

describe.each(dialects())('session lifetimes from the environment on %s', (dialect) => {
  let t: TestContext;
  beforeAll(async () => {
    t = await startTestApp(dialect, {
      env: { MAILROOM_SESSION_IDLE_MINUTES: '1', MAILROOM_SESSION_ABSOLUTE_HOURS: '2' },
    });
  });
  afterAll(async () => t.close());

  it('uses MAILROOM_SESSION_IDLE_MINUTES and MAILROOM_SESSION_ABSOLUTE_HOURS', async () => {
    const row = await t.deps.database.db
      .selectFrom('sessions')
      .selectAll()
      .where('token_hash', '=', hashToken(t.token))
      .executeTakeFirstOrThrow();
    expect(row.expires_at - row.created_at).toBe(2 * 3_600_000);
    // 61 seconds idle is nothing under the default 30 minutes, but too long here.
    await t.deps.database.db
      .updateTable('sessions')
      .set({ last_seen_at: Date.now() - 61_000 })
      .where('id', '=', row.id)
      .execute();
    expect((await t.call({ url: '/api/system/status' })).statusCode).toBe(401);
  });
});
