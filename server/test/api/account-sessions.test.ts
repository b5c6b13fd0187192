import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addAdmin, setAdminPassword } from '../../src/features/auth/admin.service.ts';
import { dialects, startTestApp, type TestContext } from '../harness.ts';

// Issue 22 items 5-7: what other actors do to an account (an administrator resets its password,
// suspends it, removes its MFA, changes its role, requires MFA) holds for the sessions it already
// has, not only for its next sign-in.

const STEP = 30_000;
const codeAt = (secret: string, ms: number) =>
  new TOTP({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30 }).generate({
    timestamp: ms,
  });

type Caller = (
  method: string,
  url: string,
  payload?: unknown,
) => Promise<Awaited<ReturnType<TestContext['call']>>>;

describe.each(dialects())('sessions and credentials after an administrator acts, on %s', (dialect) => {
  let t: TestContext;
  let now = Math.floor(Date.now() / STEP) * STEP + 5_000;
  let n = 0;
  /** A fresh mailbox (its own domain, so that policies of one test touch no other). */
  const newMailbox = async () => {
    n++;
    const m = { email: `user${n}@d${n}.example.org`, password: `mailbox-pass-${n}-long` };
    const res = await t.call({
      method: 'POST',
      url: '/api/mail/users/add',
      payload: { createDomain: true, email: m.email, password: m.password, quota: 1024 * 1024 },
    });
    expect(res.statusCode, res.body).toBe(200);
    return m;
  };
  const login = (body: { email: string; password: string }, ip = '192.0.2.10') =>
    t.app.inject({ method: 'POST', url: '/auth/login', payload: body, remoteAddress: ip });
  const as =
    (key: string, ip = '192.0.2.10'): Caller =>
    (method, url, payload) =>
      t.app.inject({
        method: method as 'GET',
        url,
        remoteAddress: ip,
        headers: { authorization: `Bearer ${key}` },
        ...(payload === undefined ? {} : { payload: payload as object }),
      });
  const signIn = async (body: { email: string; password: string }, ip = '192.0.2.10') => {
    const res = await login(body, ip);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().success, res.body).toBe(true);
    return as(res.json().api_key as string, ip);
  };
  const enrolTotp = async (user: Caller) => {
    const start = (await user('POST', '/api/account/mfa/totp', { deviceName: 'Phone' })).json();
    const ok = await user('POST', `/api/account/mfa/totp/${start.deviceId}/confirm`, {
      code: codeAt(start.secret, now),
    });
    expect(ok.statusCode, ok.body).toBe(200);
    return start.secret as string;
  };
  const appPasswordRows = async (email: string) =>
    t.deps.database.db
      .selectFrom('mailbox_app_passwords')
      .innerJoin('mailboxes', 'mailboxes.id', 'mailbox_app_passwords.mailbox_id')
      .select('mailbox_app_passwords.id')
      .where('mailboxes.email', '=', email)
      .execute();

  beforeAll(async () => {
    t = await startTestApp(dialect);
    t.deps.clock = () => now;
  });
  afterAll(async () => t.close());

  describe('item 5: the account sessions end when an administrator changes it', () => {
    it('a password reset by an administrator: the old session gets 401 and cannot mint an app password', async () => {
      const m = await newMailbox();
      const old = await signIn(m);
      expect((await old('POST', '/api/account/app-passwords', { name: 'Before' })).statusCode).toBe(200);
      const reset = await t.call({
        method: 'POST',
        url: `/api/mail/users/password/${m.email}`,
        payload: { password: 'a-new-password-1' },
      });
      expect(reset.statusCode, reset.body).toBe(200);
      expect((await old('GET', '/api/account/mfa')).statusCode).toBe(401);
      expect((await old('POST', '/api/account/app-passwords', { name: 'Stolen' })).statusCode).toBe(401);
      expect((await old('POST', '/api/account/mfa/totp', { deviceName: 'Attacker' })).statusCode).toBe(401);
      // The app passwords made with the old password are gone too.
      expect(await appPasswordRows(m.email)).toEqual([]);
      // The new password signs in.
      await signIn({ email: m.email, password: 'a-new-password-1' });
    });

    it('a password reset ends a sign-in waiting for its second factor (the challenge proved the old password)', async () => {
      const m = await newMailbox();
      const secret = await enrolTotp(await signIn(m));
      now += 2 * STEP;
      const ch = await login(m);
      expect(ch.json()).toMatchObject({ mfa_required: true });
      await t.call({
        method: 'POST',
        url: `/api/mail/users/password/${m.email}`,
        payload: { password: 'a-new-password-2' },
      });
      const done = await t.app.inject({
        method: 'POST',
        url: '/auth/mfa/verify',
        payload: { challenge: ch.json().challenge, method: 'totp', code: codeAt(secret, now) },
      });
      expect(done.statusCode).toBe(401);
    });

    it('suspending (one, or in bulk) ends the sessions; the app passwords go', async () => {
      const a = await newMailbox();
      const b = await newMailbox();
      const sa = await signIn(a);
      const sb = await signIn(b);
      expect((await sa('POST', '/api/account/app-passwords', { name: 'Phone' })).statusCode).toBe(200);
      expect((await t.call({ method: 'POST', url: `/api/mail/users/suspend/${a.email}` })).statusCode).toBe(
        200,
      );
      expect((await sa('GET', '/api/account/mfa')).statusCode).toBe(401);
      expect((await sa('POST', '/api/account/app-passwords', { name: 'x' })).statusCode).toBe(401);
      expect(await appPasswordRows(a.email)).toEqual([]);
      const bulk = await t.call({
        method: 'POST',
        url: '/api/mail/users/bulk',
        payload: { action: 'suspend', emails: [b.email] },
      });
      expect(bulk.statusCode, bulk.body).toBe(200);
      expect((await sb('GET', '/api/account/mfa')).statusCode).toBe(401);
    });

    it('removing the MFA of an account ends its sessions and revokes its app passwords', async () => {
      const m = await newMailbox();
      const s = await signIn(m);
      await enrolTotp(s);
      expect((await s('POST', '/api/account/app-passwords', { name: 'Phone' })).statusCode).toBe(200);
      const off = await t.call({ method: 'POST', url: '/api/mfa/disable', payload: { email: m.email } });
      expect(off.statusCode, off.body).toBe(200);
      expect((await s('GET', '/api/account/mfa')).statusCode).toBe(401);
      expect(await appPasswordRows(m.email)).toEqual([]);
      // The same when an administrator revokes its last device (the Devices tab).
      const again = await signIn(m);
      await enrolTotp(again);
      expect((await again('POST', '/api/account/app-passwords', { name: 'Phone' })).statusCode).toBe(200);
      const devices = (await t.call({ method: 'GET', url: '/api/mfa/devices' })).json<
        { id: number; userEmail: string }[]
      >();
      const mine = devices.filter((d) => d.userEmail === m.email);
      expect(mine).toHaveLength(1);
      expect((await t.call({ method: 'DELETE', url: `/api/mfa/devices/${mine[0]!.id}` })).statusCode).toBe(
        200,
      );
      expect((await again('GET', '/api/account/mfa')).statusCode).toBe(401);
      expect(await appPasswordRows(m.email)).toEqual([]);
    });

    it("a console account's role or domains change: its sessions end (the console and the CLI's passwd)", async () => {
      const who = { email: 'scoped@example.com', password: 'scoped-admin-password' };
      await addAdmin(t.deps.database.db, who.email, who.password, {
        role: 'domain-admin',
        domains: ['d1.example.org'],
      });
      let s = await signIn(who);
      const change = async (body: object) => {
        const res = await t.call({ method: 'PUT', url: `/api/accounts/${who.email}`, payload: body });
        expect(res.statusCode, res.body).toBe(200);
      };
      // The same role and domains again: nothing changed, the session stays.
      await change({ role: 'domain-admin', domains: ['d1.example.org'] });
      expect((await s('GET', '/auth/status')).json().authenticated).toBe(true);
      await change({ role: 'domain-admin', domains: ['d1.example.org', 'd2.example.org'] });
      expect((await s('GET', '/api/mail/users')).statusCode).toBe(401);
      s = await signIn(who);
      await change({ role: 'admin', domains: [] });
      expect((await s('GET', '/api/mail/users')).statusCode).toBe(401);
      s = await signIn(who);
      await setAdminPassword(t.deps.database.db, who.email, 'changed-by-the-cli-1');
      expect((await s('GET', '/api/mail/users')).statusCode).toBe(401);
    });
  });

  describe('item 6: administrators list and revoke app passwords', () => {
    it('lists (never the password), revokes; domain administrators only in their domains; mailbox users not at all', async () => {
      const m = await newMailbox();
      const s = await signIn(m);
      const made = (await s('POST', '/api/account/app-passwords', { name: 'Thunderbird' })).json();
      const list = await t.call({ method: 'GET', url: `/api/mail/users/${m.email}/app-passwords` });
      expect(list.statusCode, list.body).toBe(200);
      expect(list.json()).toMatchObject({ mfaEnabled: false, items: [{ id: made.id, name: 'Thunderbird' }] });
      expect(list.body).not.toContain(made.password);
      expect(
        (await t.call({ method: 'GET', url: '/api/mail/users/nobody@d1.example.org/app-passwords' }))
          .statusCode,
      ).toBe(404);
      // A mailbox user reaches no administration route.
      expect((await s('GET', `/api/mail/users/${m.email}/app-passwords`)).statusCode).toBe(403);
      // A domain administrator: its own domains only (another domain's mailbox answers 404).
      const da = { email: `da${n}@example.com`, password: 'domain-admin-password' };
      await addAdmin(t.deps.database.db, da.email, da.password, {
        role: 'domain-admin',
        domains: [m.email.split('@')[1]!],
      });
      const dasess = await signIn(da);
      expect((await dasess('GET', `/api/mail/users/${m.email}/app-passwords`)).statusCode).toBe(200);
      expect((await dasess('GET', '/api/mail/users/user1@d1.example.org/app-passwords')).statusCode).toBe(
        404,
      );
      expect(
        (await dasess('DELETE', `/api/mail/users/user1@d1.example.org/app-passwords/${made.id}`)).statusCode,
      ).toBe(404);
      // An id of another mailbox is not found through this one.
      const other = await newMailbox();
      expect(
        (await t.call({ method: 'DELETE', url: `/api/mail/users/${other.email}/app-passwords/${made.id}` }))
          .statusCode,
      ).toBe(404);
      const del = await dasess('DELETE', `/api/mail/users/${m.email}/app-passwords/${made.id}`);
      expect(del.statusCode, del.body).toBe(200);
      expect(await appPasswordRows(m.email)).toEqual([]);
      const audit = (await t.call({ method: 'GET', url: '/api/audit?limit=5' })).json();
      expect(JSON.stringify(audit)).toContain('mail.mailbox.app_password.revoke');
    });
  });

  describe('item 7: guesses are throttled; MFA changes reach existing sessions', () => {
    it('re-authentication with a password is throttled like sign-in: after the free guesses even the right one waits', async () => {
      const m = await newMailbox();
      const s = await signIn(m, '192.0.2.77');
      const codes: number[] = [];
      for (let i = 0; i < 8; i++)
        codes.push((await s('POST', '/api/account/reauth', { password: `wrong-guess-${i}` })).statusCode);
      expect(codes.slice(0, 5)).toEqual([400, 400, 400, 400, 400]);
      expect(codes.slice(5)).toEqual([429, 429, 429]);
      const right = await s('POST', '/api/account/reauth', { password: m.password });
      expect(right.statusCode).toBe(429);
      expect(Number(right.headers['retry-after'])).toBeGreaterThan(0);
    });

    it('"current password" on a password change is throttled too', async () => {
      const m = await newMailbox();
      const s = await signIn(m, '192.0.2.78');
      const codes: number[] = [];
      for (let i = 0; i < 7; i++)
        codes.push(
          (
            await s('POST', '/api/account/password', {
              currentPassword: `wrong-guess-${i}`,
              newPassword: 'brand-new-password-1',
            })
          ).statusCode,
        );
      expect(codes).toEqual([400, 400, 400, 400, 400, 429, 429]);
      const right = await s('POST', '/api/account/password', {
        currentPassword: m.password,
        newPassword: 'brand-new-password-1',
      });
      expect(right.statusCode).toBe(429);
    });

    it('the second-factor failure counter decays: four misses a day apart from the fifth do not lock', async () => {
      const m = await newMailbox();
      const secret = await enrolTotp(await signIn(m));
      const wrong = (code: string) => (code === '000000' ? '111111' : '000000');
      const miss = async () => {
        const ch = (await login(m)).json().challenge as string;
        return t.app.inject({
          method: 'POST',
          url: '/auth/mfa/verify',
          payload: { challenge: ch, method: 'totp', code: wrong(codeAt(secret, now)) },
        });
      };
      for (let i = 0; i < 4; i++) expect((await miss()).statusCode).toBe(401);
      now += 24 * 3_600_000;
      // Four fresh misses are allowed again (the old ones are forgotten); the fifth in a row locks.
      for (let i = 0; i < 4; i++) expect((await miss()).statusCode).toBe(401);
      expect((await miss()).statusCode).toBe(429);
    });

    it('mfa/enable reaches the sessions the account already has: forced to enrol on the next request', async () => {
      const da = { email: `enrol${n}@example.com`, password: 'enrol-admin-password' };
      await addAdmin(t.deps.database.db, da.email, da.password);
      const s = await signIn(da);
      expect((await s('GET', '/api/mail/users')).statusCode).toBe(200);
      const on = await t.call({ method: 'POST', url: '/api/mfa/enable', payload: { email: da.email } });
      expect(on.statusCode, on.body).toBe(200);
      const after = await s('GET', '/api/mail/users');
      expect(after.statusCode).toBe(403);
      expect(after.json().message).toBe('Enrol a second factor first.');
      // Enrolling makes the session whole again.
      await enrolTotp(s);
      expect((await s('GET', '/api/mail/users')).statusCode).toBe(200);
    });

    it('a new "require MFA" policy reaches existing sessions of the accounts it covers, not others', async () => {
      const covered = { email: `pol${n}@example.com`, password: 'policy-admin-password' };
      await addAdmin(t.deps.database.db, covered.email, covered.password, {
        role: 'domain-admin',
        domains: ['d1.example.org'],
      });
      const s = await signIn(covered);
      expect((await s('GET', '/api/mail/users')).statusCode).toBe(200);
      const policy = await t.call({
        method: 'POST',
        url: '/api/mfa/policies',
        payload: {
          name: 'Domain admins need MFA',
          appliesTo: 'domain-admins',
          requireMfa: true,
          allowedMethods: ['TOTP'],
        },
      });
      expect(policy.statusCode, policy.body).toBe(200);
      expect((await s('GET', '/api/mail/users')).statusCode).toBe(403);
      // The administrator who made it is not covered: its session goes on.
      expect((await t.call({ method: 'GET', url: '/api/mail/users' })).statusCode).toBe(200);
      await t.call({ method: 'DELETE', url: `/api/mfa/policies/${policy.json().id}` });
    });
  });
});
