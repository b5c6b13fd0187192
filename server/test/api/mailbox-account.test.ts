import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyPassword } from '../../src/lib/password-hash.ts';
import { dialects, startTestApp, type TestContext } from '../harness.ts';

const codeAt = (secret: string, ms: number) =>
  new TOTP({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30 }).generate({
    timestamp: ms,
  });

describe.each(dialects())('mailbox users on /account on %s', (dialect) => {
  let t: TestContext;
  const DAVE = { email: 'dave@example.org', password: 'dave-mailbox-pass-1' };
  const ERIN = { email: 'erin@example.org', password: 'erin-mailbox-pass-1' };

  const login = (body: { email: string; password: string }) =>
    t.app.inject({ method: 'POST', url: '/auth/login', payload: body });
  const as = (key: string) => (method: string, url: string, payload?: unknown) =>
    t.app.inject({
      method: method as 'GET',
      url,
      headers: { authorization: `Bearer ${key}` },
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
  const signIn = async (body: { email: string; password: string }) => {
    const res = await login(body);
    expect(res.statusCode, res.body).toBe(200);
    return as(res.json().api_key as string);
  };

  beforeAll(async () => {
    t = await startTestApp(dialect);
    for (const m of [DAVE, ERIN]) {
      const res = await t.call({
        method: 'POST',
        url: '/api/mail/users/add',
        payload: { createDomain: true, email: m.email, password: m.password, quota: 1024 * 1024 },
      });
      expect(res.statusCode, res.body).toBe(200);
    }
  });
  afterAll(async () => t.close());

  it('a mailbox user signs in with the mailbox password; a wrong one is refused like any other', async () => {
    expect((await login({ email: DAVE.email, password: 'wrong-password-1' })).statusCode).toBe(401);
    const res = await login({ email: 'Dave@Example.org', password: DAVE.password });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ success: true, email: DAVE.email });
    const status = await as(res.json().api_key)('GET', '/auth/status');
    expect(status.json()).toEqual({ authenticated: true, email: DAVE.email, kind: 'mailbox' });
    expect((await t.call({ method: 'GET', url: '/auth/status' })).json().kind).toBe('admin');
  });

  it('a mailbox session reaches only its own account calls: every administration route answers 403', async () => {
    const dave = await signIn(DAVE);
    expect((await dave('GET', '/api/account/mfa')).statusCode).toBe(200);
    expect((await dave('GET', '/api/account/app-passwords')).statusCode).toBe(200);
    for (const url of [
      '/api/mail/users',
      '/api/mfa/dashboard',
      '/api/mfa/users',
      '/api/audit',
      '/api/jobs',
      '/api/dns/dashboard',
    ])
      expect((await dave('GET', url)).statusCode, url).toBe(403);
    const add = await dave('POST', '/api/mail/users/add', {
      email: 'x@example.org',
      password: 'x-password-123',
    });
    expect(add.statusCode).toBe(403);
    expect(
      (await dave('POST', '/api/mail/users/password/erin@example.org', { password: 'stolen-pass-123' }))
        .statusCode,
    ).toBe(403);
    // Console administrators' lists do not show mailbox accounts.
    const admins = (await t.call({ method: 'GET', url: '/api/accounts' })).json();
    expect(JSON.stringify(admins)).not.toContain(DAVE.email);
  });

  it('a suspended mailbox cannot sign in; resumed, it can', async () => {
    expect((await t.call({ method: 'POST', url: `/api/mail/users/suspend/${ERIN.email}` })).statusCode).toBe(
      200,
    );
    expect((await login(ERIN)).statusCode).toBe(401);
    expect((await t.call({ method: 'POST', url: `/api/mail/users/resume/${ERIN.email}` })).statusCode).toBe(
      200,
    );
    expect((await login(ERIN)).statusCode).toBe(200);
  });

  it('app passwords: created (shown once, hashed the way Dovecot verifies), listed, revoked', async () => {
    const dave = await signIn(DAVE);
    const bad = await dave('POST', '/api/account/app-passwords', { name: '  ' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().details[0]).toMatchObject({ field: 'name' });
    const made = await dave('POST', '/api/account/app-passwords', { name: 'Thunderbird' });
    expect(made.statusCode).toBe(200);
    const { id, password } = made.json();
    expect(password).toMatch(/^[a-z2-9]{5}(-[a-z2-9]{5}){3}$/);
    const row = await t.deps.database.db
      .selectFrom('mailbox_app_passwords')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(row.password_hash).toMatch(/^\{ARGON2ID\}\$argon2id\$/);
    expect(row.lookup_key).toBe(password.slice(0, 5));
    expect(await verifyPassword(row.password_hash, password)).toBe(true);
    const list = await dave('GET', '/api/account/app-passwords');
    expect(list.json()).toMatchObject({
      available: true,
      mfaEnabled: false,
      items: [{ id, name: 'Thunderbird' }],
    });
    expect(list.body).not.toContain(password);
    // Another mailbox cannot revoke it; an administrator has no app passwords.
    const erin = await signIn(ERIN);
    expect((await erin('DELETE', `/api/account/app-passwords/${id}`)).statusCode).toBe(404);
    expect(
      (await t.call({ method: 'POST', url: '/api/account/app-passwords', payload: { name: 'x' } }))
        .statusCode,
    ).toBe(403);
    expect((await t.call({ method: 'GET', url: '/api/account/app-passwords' })).json()).toMatchObject({
      available: false,
    });
    expect((await dave('DELETE', `/api/account/app-passwords/${id}`)).statusCode).toBe(200);
    expect((await dave('DELETE', `/api/account/app-passwords/${id}`)).statusCode).toBe(404);
    expect((await dave('GET', '/api/account/app-passwords')).json().items).toEqual([]);
  });

  it('changing the password changes the mailbox password and ends every session of the user', async () => {
    const first = await signIn(ERIN);
    const second = await signIn(ERIN);
    const wrong = await first('POST', '/api/account/password', {
      currentPassword: 'not-her-password',
      newPassword: 'erin-mailbox-pass-2',
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().details[0]).toMatchObject({ field: 'currentPassword' });
    const res = await first('POST', '/api/account/password', {
      currentPassword: ERIN.password,
      newPassword: 'erin-mailbox-pass-2',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect((await first('GET', '/api/account/mfa')).statusCode).toBe(401);
    expect((await second('GET', '/api/account/mfa')).statusCode).toBe(401);
    expect((await login(ERIN)).statusCode).toBe(401);
    expect((await login({ email: ERIN.email, password: 'erin-mailbox-pass-2' })).statusCode).toBe(200);
    const mb = await t.deps.database.db
      .selectFrom('mailboxes')
      .select('password_hash')
      .where('email', '=', ERIN.email)
      .executeTakeFirstOrThrow();
    expect(await verifyPassword(mb.password_hash, 'erin-mailbox-pass-2')).toBe(true);
  });

  it('the MFA users table lists console accounts and mailbox users with their real state; an admin resets a mailbox user', async () => {
    const fresh = await t.call({
      method: 'POST',
      url: '/api/mail/users/add',
      payload: { email: 'frank@example.org', password: 'frank-mailbox-pass-1', quota: 1024 * 1024 },
    });
    expect(fresh.statusCode).toBe(200);
    const dave = await signIn(DAVE);
    const start = (await dave('POST', '/api/account/mfa/totp', { deviceName: 'Phone' })).json();
    const conf = await dave('POST', `/api/account/mfa/totp/${start.deviceId}/confirm`, {
      code: codeAt(start.secret, Date.now()),
    });
    expect(conf.statusCode, conf.body).toBe(200);
    const users = (await t.call({ method: 'GET', url: '/api/mfa/users' })).json<
      {
        email: string;
        kind: string;
        mfaEnabled: boolean;
        mfaMethod: string | null;
      }[]
    >();
    const by = (e: string) => users.find((u) => u.email === e);
    expect(by('admin@example.com')).toMatchObject({ kind: 'console', mfaEnabled: false });
    expect(by(DAVE.email)).toMatchObject({ kind: 'mailbox', mfaEnabled: true, mfaMethod: 'TOTP' });
    expect(by('frank@example.org')).toMatchObject({ kind: 'mailbox', mfaEnabled: false });
    // Now the second step is asked at sign-in, and Dovecot's view sees the factor.
    expect((await login(DAVE)).json()).toMatchObject({ mfa_required: true });
    const mfa = await t.deps.database.db.selectFrom('mailbox_mfa').select('mailbox_id').execute();
    expect(mfa).toHaveLength(1);
    const reset = await t.call({ method: 'POST', url: '/api/mfa/disable', payload: { email: DAVE.email } });
    expect(reset.statusCode).toBe(200);
    expect(await t.deps.database.db.selectFrom('mailbox_mfa').select('mailbox_id').execute()).toHaveLength(0);
    expect((await login(DAVE)).json()).toMatchObject({ success: true });
    // Enabling for a mailbox that never signed in makes its account and requires enrolment.
    const en = await t.call({
      method: 'POST',
      url: '/api/mfa/enable',
      payload: { email: 'frank@example.org' },
    });
    expect(en.statusCode, en.body).toBe(200);
    const frank = (await login({ email: 'frank@example.org', password: 'frank-mailbox-pass-1' })).json();
    expect(frank).toMatchObject({ success: true, enrol_required: true });
  });

  it('a removed mailbox takes its account (and its sessions) with it', async () => {
    const dave = await signIn(DAVE);
    expect((await t.call({ method: 'POST', url: `/api/mail/users/remove/${DAVE.email}` })).statusCode).toBe(
      200,
    );
    expect((await dave('GET', '/api/account/mfa')).statusCode).toBe(401);
    const row = await t.deps.database.db
      .selectFrom('admins')
      .select('id')
      .where('email', '=', DAVE.email)
      .executeTakeFirst();
    expect(row).toBeUndefined();
  });
});
