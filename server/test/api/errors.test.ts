import { ErrorResponse } from '@mailroom/contract/errors';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_BODY_LIMIT } from '../../src/app.ts';
import { dialects, startTestApp, type TestContext } from '../harness.ts';

function expectErrorShape(body: unknown, code: string): void {
  const parsed = ErrorResponse.strict().parse(body);
  expect(parsed.code).toBe(code);
  expect(new Date(parsed.timestamp).toISOString()).toBe(parsed.timestamp);
}

describe.each(dialects())('error answers on %s', (dialect) => {
  let t: TestContext;
  beforeAll(async () => {
    t = await startTestApp(dialect, {
      throttle: { windowMs: 60_000, freePerPair: 1, baseDelayMs: 60_000, maxPerAccount: 1, maxPerIp: 100 },
    });
  });
  afterAll(async () => t.close());

  const post = (url: string, payload: string | Buffer, contentType = 'application/json') =>
    t.app.inject({ method: 'POST', url, headers: { 'content-type': contentType }, payload });

  it('400 with per-field details for validation', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/auth/login',
      payload: { email: 'x', password: 'abcdef' },
    });
    expect(res.statusCode).toBe(400);
    expectErrorShape(res.json(), 'VALIDATION_ERROR');
    expect(res.json()).toMatchObject({
      message: 'Please enter a valid email address',
      details: [{ field: 'email', message: 'Please enter a valid email address' }],
      retryable: false,
    });
  });

  it('401, 404 and 429 in the same shape', async () => {
    const unauthorized = await t.app.inject({ url: '/api/audit' });
    expect(unauthorized.statusCode).toBe(401);
    expectErrorShape(unauthorized.json(), 'UNAUTHORIZED');

    const missing = await t.call({ url: '/api/nothing-here' });
    expect(missing.statusCode).toBe(404);
    expectErrorShape(missing.json(), 'NOT_FOUND');

    const wrongMethod = await t.call({ method: 'DELETE', url: '/api/audit' });
    expect(wrongMethod.statusCode).toBe(404);
    expectErrorShape(wrongMethod.json(), 'NOT_FOUND');

    const payload = { email: 'limited@example.com', password: 'wrong-password' };
    expect((await t.app.inject({ method: 'POST', url: '/auth/login', payload })).statusCode).toBe(401);
    const limited = await t.app.inject({ method: 'POST', url: '/auth/login', payload });
    expect(limited.statusCode).toBe(429);
    expectErrorShape(limited.json(), 'RATE_LIMITED');
    expect(limited.json().retryable).toBe(true);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('bad JSON is a 400, not a 500', async () => {
    for (const body of ['{"email": "a@b.co", "password": ', '{bad}', 'null', '[1,2', '"just a string"']) {
      const res = await post('/auth/login', body);
      expect(res.statusCode, body).toBe(400);
      expect(['BAD_REQUEST', 'VALIDATION_ERROR']).toContain(res.json().code);
      expectErrorShape(res.json(), res.json().code);
    }
    const empty = await post('/auth/login', '');
    expect(empty.statusCode).toBe(400);
    expectErrorShape(empty.json(), 'BAD_REQUEST');
  });

  it('a body over 1 MiB is a 413', async () => {
    const big = JSON.stringify({ email: 'a@example.com', password: 'x'.repeat(DEFAULT_BODY_LIMIT) });
    const res = await post('/auth/login', big);
    expect(res.statusCode).toBe(413);
    expectErrorShape(res.json(), 'PAYLOAD_TOO_LARGE');
    // Just under the limit is parsed (and then refused by the schema's own maximum).
    const under = JSON.stringify({ email: 'a@example.com', password: 'x'.repeat(DEFAULT_BODY_LIMIT - 100) });
    const ok = await post('/auth/login', under);
    expect(ok.statusCode).toBe(400);
    expect(ok.json().details[0].field).toBe('password');
  });

  it('an unsupported content type is a 415', async () => {
    const res = await post('/auth/login', '<login><email>a@b.co</email></login>', 'application/xml');
    expect(res.statusCode).toBe(415);
    expectErrorShape(res.json(), 'BAD_REQUEST');
    const form = await post(
      '/auth/login',
      'email=a%40b.co&password=secret1',
      'application/x-www-form-urlencoded',
    );
    expect(form.statusCode).toBe(415);
    // text/plain is what a cross-site form or simple fetch can send: no route reads it.
    const text = await post('/auth/login', 'hello', 'text/plain');
    expect(text.statusCode).toBe(415);
    expectErrorShape(text.json(), 'BAD_REQUEST');
  });

  it('refuses NUL characters as a 400 naming the field (PostgreSQL text cannot hold them)', async () => {
    const login = await t.app.inject({
      method: 'POST',
      url: '/auth/login',
      payload: { email: 'a\u0000@example.com', password: 'whatever-pass' },
    });
    expect(login.statusCode).toBe(400);
    expectErrorShape(login.json(), 'VALIDATION_ERROR');
    expect(login.json().details).toEqual([
      { field: 'email', message: 'Text must not contain NUL characters' },
    ]);
    const query = await t.call({ url: '/api/audit?action=auth%00' });
    expect(query.statusCode).toBe(400);
    expect(query.json().details[0].field).toBe('action');
  });

  it('a malformed session cookie is simply no session', async () => {
    const headers = { cookie: 'mailroom_session=%E0%A4%A' };
    expect((await t.app.inject({ url: '/api/audit', headers })).statusCode).toBe(401);
    expect((await t.app.inject({ url: '/auth/status', headers })).json()).toEqual({ authenticated: false });
    expect((await t.app.inject({ method: 'POST', url: '/auth/logout', headers })).statusCode).toBe(200);
  });

  it('a wrong type in a field names that field', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/auth/login',
      payload: { email: 42, password: ['a'] },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().details).toEqual([
      { field: 'email', message: 'Email is required' },
      { field: 'password', message: 'Password is required' },
    ]);
  });
});
