import { Secret, TOTP } from 'otpauth';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { addAdmin } from '../../src/features/auth/admin.service.ts';
import { dialects, startTestApp, type TestContext } from '../harness.ts';

// MFA policies apply to the account that signs in: 'admins' to every console administrator,
// 'domain-admins' to domain administrators, 'domain:<d>' to d's mailbox users and to the domain
// administrators of d. Several policies combine to the strictest.

const STEP = 30_000;
const codeAt = (secret: string, ms: number) =>
  new TOTP({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30 }).generate({
    timestamp: ms,
  });

const FULL = { email: 'full@example.com', password: 'full-admin-password' };
const DA = { email: 'da@example.com', password: 'domain-admin-password' };
const OWN_USER = { email: 'user@own.test', password: 'own-mailbox-password' };
const OTHER_USER = { email: 'user@other.test', password: 'other-mailbox-password' };
/** A mailbox of own.test that never signed in (listed without an account row). */
const NEVER = 'never@own.test';

interface PolicyBody {
  name: string;
  appliesTo: string;
  requireMfa?: boolean;
  allowedMethods?: string[];
  backupCodesEnabled?: boolean;
  backupCodesCount?: number;
  sessionTimeout?: number;
  trustedDevicesEnabled?: boolean;
  trustedDeviceExpiry?: number;
}

describe.each(dialects())('MFA policies per group on %s', (dialect) => {
  let t: TestContext;
  let now = Math.floor(Date.now() / STEP) * STEP + 5_000;

  const login = (who: { email: string; password: string }, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'POST', url: '/auth/login', payload: who, headers });
  const as = (token: string) => (method: 'GET' | 'POST', url: string, payload?: object) =>
    t.app.inject({
      method,
      url,
      headers: { authorization: `Bearer ${token}` },
      ...(payload ? { payload } : {}),
    });
  const addPolicy = async (p: PolicyBody): Promise<number> => {
    const res = await t.call({
      method: 'POST',
      url: '/api/mfa/policies',
      payload: {
        requireMfa: false,
        allowedMethods: ['TOTP', 'Backup Codes', 'Hardware Token', 'Email'],
        ...p,
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{ id: number }>().id;
  };
  const removePolicies = async () => {
    for (const p of (await t.call({ method: 'GET', url: '/api/mfa/policies' })).json<{ id: number }[]>())
      expect((await t.call({ method: 'DELETE', url: `/api/mfa/policies/${p.id}` })).statusCode).toBe(200);
  };
  const statusOf = async (email: string) =>
    (await t.call({ method: 'GET', url: '/api/mfa/users' }))
      .json<{ email: string; status: string }[]>()
      .find((u) => u.email === email)?.status;
  const maxAge = (res: { headers: Record<string, unknown> }) =>
    Number(/mailroom_session=[^;]*;[^,]*Max-Age=(\d+)/.exec(String(res.headers['set-cookie']))?.[1]);

  beforeAll(async () => {
    t = await startTestApp(dialect);
    t.deps.clock = () => now;
    await addAdmin(t.deps.database.db, FULL.email, FULL.password);
    for (const m of [OWN_USER, OTHER_USER, { email: NEVER, password: 'never-mailbox-password' }]) {
      const res = await t.call({
        method: 'POST',
        url: '/api/mail/users/add',
        payload: { createDomain: true, email: m.email, password: m.password, quota: 0 },
      });
      expect(res.statusCode, res.body).toBe(200);
    }
    const da = await t.call({
      method: 'POST',
      url: '/api/accounts',
      payload: { ...DA, role: 'domain-admin', domains: ['own.test'] },
    });
    expect(da.statusCode, da.body).toBe(200);
  });
  // Each test starts with no policy, whatever the one before left.
  afterEach(removePolicies);
  afterAll(async () => t.close());

  it('Applies To takes admins, domain-admins and domain:<name>; anything else is refused on the field', async () => {
    for (const appliesTo of ['domain-admin', 'domain:', 'users', 'domain:nodot']) {
      const res = await t.call({
        method: 'POST',
        url: '/api/mfa/policies',
        payload: { name: `bad ${appliesTo}`, appliesTo, allowedMethods: ['TOTP'] },
      });
      expect(res.statusCode, appliesTo).toBe(400);
      expect(res.json().details[0]).toMatchObject({
        field: 'appliesTo',
        message: 'Applies To format is invalid',
      });
    }
    const id = await addPolicy({ name: 'Domain administrators', appliesTo: 'Domain-Admins' });
    const listed = (await t.call({ method: 'GET', url: '/api/mfa/policies' })).json<
      { id: number; appliesTo: string }[]
    >();
    expect(listed.find((p) => p.id === id)?.appliesTo).toBe('domain-admins');
  });

  it('a Domain administrators policy requiring MFA sends a domain admin to enrolment, not a full admin', async () => {
    expect((await login(DA)).json().enrol_required).toBeUndefined();
    await addPolicy({
      name: 'Domain admins need MFA',
      appliesTo: 'domain-admins',
      requireMfa: true,
      sessionTimeout: 1200,
    });
    const da = await login(DA);
    expect(da.json()).toMatchObject({ success: true, enrol_required: true, kind: 'admin' });
    expect(maxAge(da)).toBe(1200);
    // The enrolment session reaches only the account's own calls.
    const daCall = as(da.json().api_key);
    expect((await daCall('GET', '/api/mail/users')).statusCode).toBe(403);
    expect((await daCall('GET', '/api/account/mfa')).json()).toMatchObject({ enrolRequired: true });
    const full = await login(FULL);
    expect(full.json()).toMatchObject({ success: true, kind: 'admin' });
    expect(full.json().enrol_required).toBeUndefined();
    expect(maxAge(full)).toBe(t.deps.config.sessionAbsoluteMs / 1000);
    const user = await login(OWN_USER);
    expect(user.json().enrol_required).toBeUndefined();
    // The users table says who the policy requires to enrol, account by account.
    expect(await statusOf(DA.email)).toBe('enrolment required');
    expect(await statusOf(FULL.email)).toBe('active');
    expect(await statusOf(OWN_USER.email)).toBe('active');
    await removePolicies();
    expect((await login(DA)).json().enrol_required).toBeUndefined();
  });

  it("a Users of a domain policy sends that domain's mailbox users to enrolment, not another domain's", async () => {
    await addPolicy({
      name: 'own.test users',
      appliesTo: 'domain:own.test',
      requireMfa: true,
      sessionTimeout: 600,
    });
    const own = await login(OWN_USER);
    expect(own.json()).toMatchObject({ success: true, enrol_required: true, kind: 'mailbox' });
    expect(maxAge(own)).toBe(600);
    expect((await as(own.json().api_key)('GET', '/api/account/mfa')).json()).toMatchObject({
      enrolRequired: true,
    });
    const other = await login(OTHER_USER);
    expect(other.json()).toMatchObject({ success: true, kind: 'mailbox' });
    expect(other.json().enrol_required).toBeUndefined();
    // own.test's domain administrator is covered too; a full administrator is not.
    expect((await login(DA)).json().enrol_required).toBe(true);
    expect((await login(FULL)).json().enrol_required).toBeUndefined();
    expect(await statusOf(OWN_USER.email)).toBe('enrolment required');
    expect(await statusOf(NEVER)).toBe('enrolment required');
    expect(await statusOf(OTHER_USER.email)).toBe('active');
    expect(await statusOf(FULL.email)).toBe('active');
    // A disabled policy asks nothing.
    const [p] = (await t.call({ method: 'GET', url: '/api/mfa/policies' })).json<
      { id: number; name: string }[]
    >();
    const off = await t.call({
      method: 'PUT',
      url: `/api/mfa/policies/${p!.id}`,
      payload: { name: p!.name, appliesTo: 'domain:own.test', enabled: false, allowedMethods: ['TOTP'] },
    });
    expect(off.statusCode, off.body).toBe(200);
    expect((await login(OWN_USER)).json().enrol_required).toBeUndefined();
  });

  it("a group's allowed methods refuse a method to its accounts only", async () => {
    await addPolicy({
      name: 'own.test keys only',
      appliesTo: 'domain:own.test',
      allowedMethods: ['Hardware Token'],
    });
    const own = as((await login(OWN_USER)).json().api_key);
    expect((await own('GET', '/api/account/mfa')).json().allowedMethods).toEqual(['Hardware Token']);
    const refused = await own('POST', '/api/account/mfa/totp', { deviceName: 'Phone' });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toBe('The MFA policy does not allow authenticator apps.');
    const other = as((await login(OTHER_USER)).json().api_key);
    expect((await other('POST', '/api/account/mfa/totp', { deviceName: 'Phone' })).statusCode).toBe(200);
    await addPolicy({
      name: 'Domain admins: no keys',
      appliesTo: 'domain-admins',
      allowedMethods: ['TOTP', 'Backup Codes'],
    });
    const da = as((await login(DA)).json().api_key);
    const noKey = await da('POST', '/api/account/mfa/webauthn/options', { deviceName: 'Key' });
    expect(noKey.statusCode).toBe(403);
    expect(noKey.json().message).toBe('The MFA policy does not allow security keys.');
    const full = as((await login(FULL)).json().api_key);
    expect((await full('POST', '/api/account/mfa/webauthn/options', { deviceName: 'Key' })).statusCode).toBe(
      200,
    );
  });

  it('several policies covering an account combine to the strictest', async () => {
    await addPolicy({
      name: 'All administrators',
      appliesTo: 'admins',
      allowedMethods: ['TOTP', 'Backup Codes', 'Hardware Token', 'Email'],
      backupCodesCount: 10,
      sessionTimeout: 3600,
      trustedDevicesEnabled: true,
      trustedDeviceExpiry: 86400,
    });
    await addPolicy({
      name: 'Domain administrators',
      appliesTo: 'domain-admins',
      allowedMethods: ['TOTP', 'Backup Codes', 'Email'],
      backupCodesCount: 8,
      sessionTimeout: 1800,
      trustedDevicesEnabled: true,
      trustedDeviceExpiry: 7200,
    });
    await addPolicy({
      name: 'own.test',
      appliesTo: 'domain:own.test',
      allowedMethods: ['TOTP', 'Backup Codes', 'Hardware Token'],
      backupCodesCount: 5,
      sessionTimeout: 900,
      trustedDevicesEnabled: true,
      trustedDeviceExpiry: 3600,
    });
    // The domain administrator of own.test: all three.
    const daLogin = await login(DA);
    expect(maxAge(daLogin)).toBe(900);
    const da = as(daLogin.json().api_key);
    expect((await da('GET', '/api/account/mfa')).json().allowedMethods).toEqual(['TOTP', 'Backup Codes']);
    const start = (await da('POST', '/api/account/mfa/totp', { deviceName: 'Phone' })).json();
    expect(
      (
        await da('POST', `/api/account/mfa/totp/${start.deviceId}/confirm`, {
          code: codeAt(start.secret, now),
        })
      ).statusCode,
    ).toBe(200);
    const codes = await da('POST', '/api/account/mfa/backup-codes');
    expect(codes.statusCode, codes.body).toBe(200);
    expect(codes.json().codes).toHaveLength(5);
    now += STEP;
    const ch = (await login(DA)).json();
    expect(ch.methods).toEqual(['totp', 'backup_code']);
    const v = await t.app.inject({
      method: 'POST',
      url: '/auth/mfa/verify',
      payload: {
        challenge: ch.challenge,
        method: 'totp',
        code: codeAt(start.secret, now),
        trust_device: true,
      },
    });
    expect(v.statusCode, v.body).toBe(200);
    expect(maxAge(v)).toBe(900);
    expect(String(v.headers['set-cookie'])).toMatch(/mailroom_trusted=[^;]+;[^,]*Max-Age=3600/);
    // A full administrator: only 'admins'.
    const full = await login(FULL);
    expect(maxAge(full)).toBe(3600);
    expect((await as(full.json().api_key)('GET', '/api/account/mfa')).json().allowedMethods).toEqual([
      'TOTP',
      'Backup Codes',
      'Hardware Token',
      'Email',
    ]);
    // A mailbox user of own.test: only its domain's.
    const own = await login(OWN_USER);
    expect(maxAge(own)).toBe(900);
    expect((await as(own.json().api_key)('GET', '/api/account/mfa')).json().allowedMethods).toEqual([
      'TOTP',
      'Backup Codes',
      'Hardware Token',
    ]);
    // One policy that turns trusted devices off turns them off for everyone it covers.
    await addPolicy({ name: 'No trust', appliesTo: 'domain-admins', trustedDevicesEnabled: false });
    now += STEP;
    const ch2 = (await login(DA)).json();
    const v2 = await t.app.inject({
      method: 'POST',
      url: '/auth/mfa/verify',
      payload: {
        challenge: ch2.challenge,
        method: 'totp',
        code: codeAt(start.secret, now),
        trust_device: true,
      },
    });
    expect(v2.statusCode, v2.body).toBe(200);
    expect(String(v2.headers['set-cookie'])).not.toContain('mailroom_trusted=');
  });
});
