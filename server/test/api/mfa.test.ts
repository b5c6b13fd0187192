import { statSync } from 'node:fs';
import path from 'node:path';
import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addAdmin } from '../../src/features/auth/admin.service.ts';
import { ADMIN, dialects, startTestApp, type TestContext } from '../harness.ts';

const STEP = 30_000;
const codeAt = (secret: string, ms: number) =>
  new TOTP({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30 }).generate({
    timestamp: ms,
  });

describe.each(dialects())('second factor on %s', (dialect) => {
  let t: TestContext;
  // A set clock, on a step boundary plus 5 s, near the real time (sessions use the real clock).
  let now = Math.floor(Date.now() / STEP) * STEP + 5_000;
  let secret = '';
  const OTHER = { email: 'second@example.com', password: 'another-good-password' };

  beforeAll(async () => {
    t = await startTestApp(dialect);
    t.deps.clock = () => now;
    await addAdmin(t.deps.database.db, OTHER.email, OTHER.password);
  });
  afterAll(async () => t.close());

  const login = (payload: object, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'POST', url: '/auth/login', payload, remoteAddress: '192.0.2.50', headers });
  const verify = (payload: object) =>
    t.app.inject({ method: 'POST', url: '/auth/mfa/verify', payload, remoteAddress: '192.0.2.50' });
  const as = (token: string) => (method: 'GET' | 'POST' | 'DELETE' | 'PUT', url: string, payload?: object) =>
    t.app.inject({
      method,
      url,
      headers: { authorization: `Bearer ${token}` },
      ...(payload ? { payload } : {}),
    });
  const challenge = async (who = ADMIN) => {
    const res = await login(who);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ success: false, mfa_required: true });
    return body.challenge as string;
  };

  it('a signed-in administrator without a factor keeps the plain sign-in', async () => {
    const res = await login(ADMIN);
    expect(Object.keys(res.json()).sort()).toEqual(['api_key', 'email', 'kind', 'success']);
  });

  it('enrols TOTP: QR and secret, confirmed by a first code, secret encrypted at rest', async () => {
    const start = await t.call({
      method: 'POST',
      url: '/api/account/mfa/totp',
      payload: { deviceName: 'Phone' },
    });
    expect(start.statusCode).toBe(200);
    const s = start.json();
    secret = s.secret;
    expect(s.otpauthUrl).toMatch(/^otpauth:\/\/totp\/.*secret=.*algorithm=SHA1&digits=6&period=30/);
    expect(s.qrSvg).toMatch(/^<svg/);
    const row = await t.deps.database.db.selectFrom('mfa_devices').selectAll().executeTakeFirstOrThrow();
    expect(row.secret_enc).not.toContain(secret);
    expect(statSync(path.join(t.dataDir, 'mfa.key')).mode & 0o777).toBe(0o600);
    // Before confirmation the sign-in does not ask for it.
    expect((await login(ADMIN)).json().success).toBe(true);
    const wrong = await t.call({
      method: 'POST',
      url: `/api/account/mfa/totp/${s.deviceId}/confirm`,
      payload: { code: codeAt(secret, now + 10 * STEP) },
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().details[0].field).toBe('code');
    const ok = await t.call({
      method: 'POST',
      url: `/api/account/mfa/totp/${s.deviceId}/confirm`,
      payload: { code: codeAt(secret, now) },
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({
      deviceName: 'Phone',
      deviceType: 'TOTP',
      status: 'active',
      isPrimary: true,
    });
  });

  it('signs in with the second step: valid, ±1 step, replay refused, wrong refused', async () => {
    // The code used to confirm the enrolment is spent.
    let res = await verify({ challenge: await challenge(), method: 'totp', code: codeAt(secret, now) });
    expect(res.statusCode).toBe(401);
    expect(res.json().message).toBe('Invalid verification code.');
    now += STEP;
    const ch = await challenge();
    res = await verify({ challenge: ch, method: 'totp', code: codeAt(secret, now) });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ success: true, email: ADMIN.email });
    expect(String(res.headers['set-cookie'])).toContain('mailroom_session=');
    // The challenge is spent too.
    res = await verify({ challenge: ch, method: 'totp', code: codeAt(secret, now + STEP) });
    expect(res.statusCode).toBe(401);
    // Replay of the same code on a fresh challenge.
    res = await verify({ challenge: await challenge(), method: 'totp', code: codeAt(secret, now) });
    expect(res.statusCode).toBe(401);
    now += 3 * STEP;
    // One step behind and one ahead are accepted (each once), two ahead is not.
    res = await verify({ challenge: await challenge(), method: 'totp', code: codeAt(secret, now - STEP) });
    expect(res.statusCode).toBe(200);
    res = await verify({ challenge: await challenge(), method: 'totp', code: codeAt(secret, now + STEP) });
    expect(res.statusCode).toBe(200);
    res = await verify({
      challenge: await challenge(),
      method: 'totp',
      code: codeAt(secret, now + 3 * STEP),
    });
    expect(res.statusCode).toBe(401);
    const good = codeAt(secret, now + 2 * STEP);
    res = await verify({
      challenge: await challenge(),
      method: 'totp',
      code: good === '000000' ? '111111' : '000000',
    });
    expect(res.statusCode).toBe(401);
    // Reset the failure counter with a good sign-in for the next tests.
    now += 2 * STEP;
    res = await verify({ challenge: await challenge(), method: 'totp', code: codeAt(secret, now) });
    expect(res.statusCode).toBe(200);
    const activity = (await t.call({ method: 'GET', url: '/api/mfa/activity' })).json();
    expect(
      activity.some(
        (a: { action: string; status: string }) => a.action === 'mfa_login' && a.status === 'failed',
      ),
    ).toBe(true);
    expect(activity[0]).toMatchObject({ action: 'mfa_login', status: 'success', ipAddress: '192.0.2.50' });
  });

  it('backup codes: ten shown once, stored hashed, each used once, a new set replaces the old', async () => {
    const gen = await t.call({ method: 'POST', url: '/api/account/mfa/backup-codes' });
    expect(gen.statusCode).toBe(200);
    const codes: string[] = gen.json().codes;
    expect(codes).toHaveLength(10);
    const hashes = await t.deps.database.db.selectFrom('mfa_backup_codes').select('code_hash').execute();
    expect(hashes.map((h) => h.code_hash)).not.toContain(codes[0]);
    const ch = await challenge();
    expect((await login(ADMIN)).json().methods).toEqual(['totp', 'backup_code']);
    let res = await verify({ challenge: ch, method: 'backup_code', code: codes[0] });
    expect(res.statusCode).toBe(200);
    res = await verify({ challenge: await challenge(), method: 'backup_code', code: codes[0] });
    expect(res.statusCode).toBe(401);
    const regen = await t.call({ method: 'POST', url: '/api/account/mfa/backup-codes' });
    expect(regen.statusCode).toBe(200);
    res = await verify({ challenge: await challenge(), method: 'backup_code', code: codes[1] });
    expect(res.statusCode).toBe(401);
    res = await verify({ challenge: await challenge(), method: 'backup_code', code: regen.json().codes[1] });
    expect(res.statusCode).toBe(200);
    const mine = (await t.call({ method: 'GET', url: '/api/account/mfa' })).json();
    expect(mine.backupCodes).toEqual({ available: 9, used: 1, expired: 0 });
  });

  it('locks the account after five failed codes; an administrator unlocks it (audited)', async () => {
    const bad = codeAt(secret, now + 20 * STEP);
    let res;
    for (let i = 0; i < 4; i++) {
      res = await verify({ challenge: await challenge(), method: 'totp', code: bad });
      expect(res.statusCode).toBe(401);
    }
    const ch = await challenge();
    res = await verify({ challenge: ch, method: 'totp', code: bad });
    expect(res.statusCode).toBe(429);
    expect(res.json().message).toMatch(/^Account locked/);
    // Locked: the password alone now answers the lock, and a right code is refused too.
    expect((await login(ADMIN)).statusCode).toBe(429);
    now += STEP;
    res = await verify({ challenge: ch, method: 'totp', code: codeAt(secret, now) });
    expect(res.statusCode).not.toBe(200);
    const rec = (await t.call({ method: 'GET', url: '/api/mfa/recovery' })).json();
    const lock = rec.lockouts[0];
    expect(lock).toMatchObject({
      userEmail: ADMIN.email,
      status: 'active',
      attempts: 5,
      ipAddress: '192.0.2.50',
    });
    const users = (await t.call({ method: 'GET', url: '/api/mfa/users' })).json();
    expect(users.find((u: { email: string }) => u.email === ADMIN.email).status).toBe('locked');
    const un = await t.call({ method: 'POST', url: `/api/mfa/lockouts/${lock.id}/unlock` });
    expect(un.statusCode).toBe(200);
    const audit = await t.deps.database.db
      .selectFrom('audit_log')
      .selectAll()
      .where('action', '=', 'mfa.lockout.unlock')
      .executeTakeFirstOrThrow();
    expect(audit).toMatchObject({ actor: ADMIN.email, outcome: 'success' });
    expect((await t.call({ method: 'GET', url: '/api/mfa/recovery' })).json().lockouts[0]).toMatchObject({
      status: 'unlocked',
      unlockedBy: ADMIN.email,
    });
    now += STEP;
    res = await verify({ challenge: await challenge(), method: 'totp', code: codeAt(secret, now) });
    expect(res.statusCode).toBe(200);
  });

  it('re-authentication is needed for security changes once the sign-in is no longer recent', async () => {
    now += STEP;
    const fresh = await verify({ challenge: await challenge(), method: 'totp', code: codeAt(secret, now) });
    const call = as(fresh.json().api_key);
    now += 11 * 60_000;
    let res = await call('POST', '/api/account/mfa/totp', { deviceName: 'Tablet' });
    expect(res.statusCode).toBe(403);
    res = await call('POST', '/api/account/reauth', { password: 'wrong-password!' });
    expect(res.statusCode).toBe(400);
    res = await call('POST', '/api/account/reauth', { password: ADMIN.password });
    expect(res.statusCode).toBe(200);
    res = await call('POST', '/api/account/mfa/totp', { deviceName: 'Tablet' });
    expect(res.statusCode).toBe(200);
  });

  it('policies: MFA required for administrators sends an account without a factor to enrolment', async () => {
    const pol = await t.call({
      method: 'POST',
      url: '/api/mfa/policies',
      payload: {
        name: 'Administrators',
        description: 'Every console administrator',
        appliesTo: 'admins',
        allowedMethods: ['TOTP', 'Backup Codes', 'Hardware Token'],
        sessionTimeout: 900,
        trustedDevicesEnabled: true,
        trustedDeviceExpiry: 86400,
      },
    });
    expect(pol.statusCode).toBe(200);
    const bad = await t.call({
      method: 'POST',
      url: '/api/mfa/policies',
      payload: { name: 'x', allowedMethods: [] },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().details[0]).toMatchObject({
      field: 'allowedMethods',
      message: 'Methods must be at least 1',
    });
    const res = await login(OTHER);
    expect(res.json()).toMatchObject({ success: true, enrol_required: true });
    expect(String(res.headers['set-cookie'])).toContain('Max-Age=900');
    const other = as(res.json().api_key);
    expect((await other('GET', '/api/mfa/users')).statusCode).toBe(403);
    expect((await other('GET', '/api/account/mfa')).json()).toMatchObject({ enrolRequired: true });
    const start = (await other('POST', '/api/account/mfa/totp', { deviceName: 'Key fob' })).json();
    const conf = await other('POST', `/api/account/mfa/totp/${start.deviceId}/confirm`, {
      code: codeAt(start.secret, now),
    });
    expect(conf.statusCode).toBe(200);
    expect((await other('GET', '/api/mfa/users')).statusCode).toBe(200);
    // Trusted device: remembered for this account only.
    now += STEP;
    const v = await verify({
      challenge: await challenge(OTHER),
      method: 'totp',
      code: codeAt(start.secret, now),
      trust_device: true,
    });
    expect(v.statusCode).toBe(200);
    const trusted = /mailroom_trusted=([^;]+)/.exec(String(v.headers['set-cookie']))?.[1];
    expect(trusted).toBeTruthy();
    expect(String(v.headers['set-cookie'])).toContain('Max-Age=86400');
    const again = await login(OTHER, { cookie: `mailroom_trusted=${trusted}` });
    expect(again.json()).toMatchObject({ success: true, email: OTHER.email });
    const elsewhere = await login(ADMIN, { cookie: `mailroom_trusted=${trusted}` });
    expect(elsewhere.json().mfa_required).toBe(true);
    now += 86400_000 + STEP;
    expect((await login(OTHER, { cookie: `mailroom_trusted=${trusted}` })).json().mfa_required).toBe(true);
    now -= 86400_000;
    expect((await t.call({ method: 'DELETE', url: `/api/mfa/policies/${pol.json().id}` })).statusCode).toBe(
      200,
    );
  });

  it('removing a factor or changing the password ends every session of the account', async () => {
    now += STEP;
    const s1 = (await verify({ challenge: await challenge(OTHER), method: 'backup_code', code: 'nope-nope' }))
      .statusCode;
    expect(s1).toBe(401);
    const users = (await t.call({ method: 'GET', url: '/api/mfa/users' })).json();
    const other = users.find((u: { email: string }) => u.email === OTHER.email);
    expect(other).toMatchObject({ mfaEnabled: true, mfaMethod: 'TOTP', mfaDevicesCount: 1 });
    const dash = (await t.call({ method: 'GET', url: '/api/mfa/dashboard' })).json();
    expect(dash.stats).toMatchObject({ totalUsers: 2, mfaEnabledUsers: 2 });
    expect(dash.stats.mfaSuccessRate + dash.stats.mfaFailureRate).toBeCloseTo(100);
    // The admin revokes OTHER's device: OTHER's sessions end.
    const otherToken = (await t.app.inject({ method: 'GET', url: '/api/mfa/users' })).statusCode; // no token: 401
    expect(otherToken).toBe(401);
    const devId = other.mfaDevices[0].id;
    const before = await t.deps.database.db
      .selectFrom('sessions')
      .innerJoin('admins', 'admins.id', 'sessions.admin_id')
      .select('sessions.id')
      .where('admins.email', '=', OTHER.email)
      .execute();
    expect(before.length).toBeGreaterThan(0);
    expect((await t.call({ method: 'DELETE', url: `/api/mfa/devices/${devId}` })).statusCode).toBe(200);
    const after = await t.deps.database.db
      .selectFrom('sessions')
      .innerJoin('admins', 'admins.id', 'sessions.admin_id')
      .select('sessions.id')
      .where('admins.email', '=', OTHER.email)
      .execute();
    expect(after).toHaveLength(0);
    // Password change ends the caller's sessions too.
    const s = (await login(OTHER)).json();
    const call = as(s.api_key);
    const pw = await call('POST', '/api/account/password', {
      currentPassword: OTHER.password,
      newPassword: 'a-brand-new-password',
    });
    expect(pw.statusCode).toBe(200);
    expect((await call('GET', '/api/account/mfa')).statusCode).toBe(401);
    OTHER.password = 'a-brand-new-password';
  });

  it('recovery: requested from the sign-in page, approved by an administrator, enrolment forced', async () => {
    const req = await t.app.inject({
      method: 'POST',
      url: '/auth/mfa/recovery',
      payload: { email: ADMIN.email, requestType: 'Device Lost', reason: 'Phone fell in the sea' },
      remoteAddress: '192.0.2.77',
    });
    expect(req.statusCode).toBe(200);
    const unknown = await t.app.inject({
      method: 'POST',
      url: '/auth/mfa/recovery',
      payload: { email: 'nobody@example.com', requestType: 'Device Lost', reason: 'x' },
    });
    expect(unknown.json().message).toBe(req.json().message);
    const s = (await login(OTHER)).json();
    const other = as(s.api_key);
    const rec = (await other('GET', '/api/mfa/recovery')).json();
    expect(rec.requests[0]).toMatchObject({
      userEmail: ADMIN.email,
      status: 'pending',
      requestType: 'Device Lost',
      ipAddress: '192.0.2.77',
    });
    const id = rec.requests[0].id;
    expect((await other('POST', `/api/mfa/recovery/${id}/approve`)).statusCode).toBe(200);
    expect((await other('POST', `/api/mfa/recovery/${id}/reject`)).statusCode).toBe(409);
    const done = (await other('GET', '/api/mfa/recovery')).json().requests[0];
    expect(done).toMatchObject({ status: 'approved', resolvedBy: OTHER.email });
    expect(done.resolvedAt).toBeTruthy();
    // The admin's factors are gone and it must enrol at the next sign-in.
    const res = await login(ADMIN);
    expect(res.json()).toMatchObject({ success: true, enrol_required: true });
    expect((await t.call({ method: 'GET', url: '/api/mfa/users' })).statusCode).toBe(401);
  });
});
