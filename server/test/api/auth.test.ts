import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, dialects, startTestApp, type TestContext } from '../harness.ts';

describe.each(dialects())('auth on %s', (dialect) => {
  let t: TestContext;
  beforeAll(async () => {
    t = await startTestApp(dialect);
  });
  afterAll(async () => t.close());

  it('signs in with the right password and answers the key', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/auth/login', payload: ADMIN });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.success).toBe(true);
    expect(body.email).toBe(ADMIN.email);
    expect(body.api_key).toMatch(/^[A-Za-z0-9_-]{40,}$/);
    const status = await t.app.inject({
      method: 'GET',
      url: '/auth/status',
      headers: { authorization: `Bearer ${body.api_key}` },
    });
    expect(status.json()).toEqual({
      authenticated: true,
      email: ADMIN.email,
      role: 'admin',
      domains: [],
      kind: 'admin',
    });
  });

  it('refuses a wrong password with 401 and the error shape', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/auth/login',
      payload: { email: ADMIN.email, password: 'wrong-password' },
    });
    expect(res.statusCode).toBe(401);
    const body = res.json();
    expect(body).toMatchObject({
      code: 'UNAUTHORIZED',
      message: 'Invalid email or password.',
      retryable: false,
    });
    expect(Date.parse(body.timestamp)).not.toBeNaN();
  });

  it('answers 401 to /api without a key and 200 with one', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/system/status' })).statusCode).toBe(401);
    const ok = await t.call({ method: 'GET', url: '/api/system/status' });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().memory.total).toBeGreaterThan(0);
  });
});
