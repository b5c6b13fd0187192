import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, dialects, startTestApp, type TestContext } from '../harness.ts';

describe.each(dialects())('sign-in on %s', (dialect) => {
  let t: TestContext;
  beforeAll(async () => {
    t = await startTestApp(dialect);
  });
  afterAll(async () => t.close());

  const login = (payload: unknown, remoteAddress = '192.0.2.10') =>
    t.app.inject({ method: 'POST', url: '/auth/login', payload: payload as object, remoteAddress });

  const SIGNED_IN = { authenticated: true, email: ADMIN.email, role: 'admin', domains: [], kind: 'admin' };

  it('answers {success, api_key, email} and a strict, HttpOnly cookie', async () => {
    const res = await login({ email: '  Admin@Example.COM ', password: ADMIN.password });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(Object.keys(body).sort()).toEqual(['api_key', 'email', 'kind', 'success']);
    expect(body.kind).toBe('admin');
    expect(body).toMatchObject({ success: true, email: ADMIN.email });
    // 32 random bytes in base64url: 256 bits, well above the 128-bit floor.
    expect(Buffer.from(body.api_key, 'base64url')).toHaveLength(32);
    const cookie = String(res.headers['set-cookie']);
    expect(cookie).toContain(`mailroom_session=${body.api_key}`);
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Strict/);
    expect(cookie).toMatch(/Max-Age=43200/);
    expect(cookie).not.toMatch(/Secure/);
  });

  it('keeps only a hash of the key in the database', async () => {
    const { api_key } = (await login(ADMIN)).json();
    const rows = await t.deps.database.db.selectFrom('sessions').select('token_hash').execute();
    const hashes = rows.map((r) => r.token_hash);
    expect(hashes).toContain(createHash('sha256').update(api_key).digest('hex'));
    expect(hashes).not.toContain(api_key);
  });

  it('refuses a wrong password and an unknown account alike', async () => {
    for (const payload of [
      { email: ADMIN.email, password: 'wrong-password' },
      { email: 'nobody@example.com', password: ADMIN.password },
    ]) {
      const res = await login(payload, '192.0.2.11');
      expect(res.statusCode).toBe(401);
      expect(res.json()).toMatchObject({
        code: 'UNAUTHORIZED',
        message: 'Invalid email or password.',
        details: null,
        retryable: false,
      });
      expect(res.headers['set-cookie']).toBeUndefined();
    }
  });

  it('names the fields with the spec messages', async () => {
    const bad = await login({ email: 'not-an-email', password: '12345' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().code).toBe('VALIDATION_ERROR');
    expect(bad.json().details).toEqual([
      { field: 'email', message: 'Please enter a valid email address' },
      { field: 'password', message: 'Password must be at least 6 characters' },
    ]);

    const missing = await login({});
    expect(missing.statusCode).toBe(400);
    expect(missing.json().details).toEqual([
      { field: 'email', message: 'Email is required' },
      { field: 'password', message: 'Password is required' },
    ]);

    const blank = await login({ email: '   ', password: '' });
    expect(blank.json().details).toEqual([
      { field: 'email', message: 'Email is required' },
      { field: 'password', message: 'Password is required' },
    ]);
  });

  it('tells the status by bearer key and by cookie', async () => {
    const { api_key } = (await login(ADMIN)).json();
    const byBearer = await t.app.inject({
      url: '/auth/status',
      headers: { authorization: `Bearer ${api_key}` },
    });
    expect(byBearer.json()).toEqual(SIGNED_IN);
    const byCookie = await t.app.inject({
      url: '/auth/status',
      headers: { cookie: `theme=dark; mailroom_session=${api_key}` },
    });
    expect(byCookie.json()).toEqual(SIGNED_IN);
    const api = await t.app.inject({
      url: '/api/system/status',
      headers: { cookie: `mailroom_session=${api_key}` },
    });
    expect(api.statusCode).toBe(200);

    const none = await t.app.inject({ url: '/auth/status' });
    expect(none.statusCode).toBe(200);
    expect(none.json()).toEqual({ authenticated: false });
    const forged = await t.app.inject({
      url: '/auth/status',
      headers: { authorization: `Bearer ${api_key.slice(0, -2)}xx` },
    });
    expect(forged.json()).toEqual({ authenticated: false });
  });

  it('records every attempt with its outcome and address in the audit log', async () => {
    await login({ email: 'audit-probe@example.com', password: 'wrong-password' }, '198.51.100.7');
    await login(ADMIN, '198.51.100.8');
    const { entries } = (await t.call({ url: '/api/audit?action=auth.login&limit=5' })).json();
    expect(entries[0]).toMatchObject({
      actor: ADMIN.email,
      action: 'auth.login',
      ip: '198.51.100.8',
      outcome: 'success',
    });
    expect(entries[1]).toMatchObject({
      actor: 'audit-probe@example.com',
      action: 'auth.login',
      ip: '198.51.100.7',
      outcome: 'failure',
    });
    expect(JSON.parse(entries[1].details)).toEqual({ reason: 'bad credentials' });
    // The password never reaches the log.
    expect(JSON.stringify(entries)).not.toContain('wrong-password');
  });
});
