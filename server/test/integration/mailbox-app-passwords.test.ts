import { writeFileSync } from 'node:fs';
import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureMailRole, mailRoleUrl } from '../../src/db/mail-role.ts';
import {
  appPasswordSqlConf,
  renderDovecotAppPasswordSql,
  renderDovecotSql,
} from '../../src/features/mail/stack/dovecot.renderer.ts';
import { mailDbConn } from '../../src/features/mail/stack/mail-db.connection.ts';
import { dovecotPaths } from '../../src/features/mail/stack/mail-stack.service.ts';
import { MAIL_PATHS } from '../../src/features/mail/stack/mail-paths.layout.ts';
import { dialects, startTestApp, type TestContext } from '../harness.ts';
import { imapLogin } from '../mail-clients.ts';
import { type ImapDovecot, missingDovecotPackages, startImapDovecot } from '../mail-daemons.ts';
import { skipLoudly } from '../skip-loudly.ts';

// A mailbox with MFA on signs in to IMAP/POP3/SMTP with its app passwords only: proved against
// the real Dovecot reading the rendered passdb (on PostgreSQL through the least-privilege role).

const codeAt = (secret: string, ms: number) =>
  new TOTP({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30 }).generate({
    timestamp: ms,
  });

describe.each(dialects())('app passwords and MFA in Dovecot on %s', (dialect) => {
  const missing = missingDovecotPackages(dialect);
  if (missing.length) {
    const msg = `Debian package(s) missing: ${missing.join(', ')}: Dovecot app password test on ${dialect} is SKIPPED`;
    skipLoudly(msg);
    it.skip(msg, () => undefined);
    return;
  }

  let t: TestContext;
  let dovecot: ImapDovecot | undefined;
  let imapPort: number;
  let userKey = '';
  let appPassword = '';
  const EMAIL = 'carol@example.com';
  const MAIN = 'carol-main-secret-1';

  const authTest = (user: string, password: string) => dovecot!.doveadm(['auth', 'test', user, password]);
  const accepted = (user: string, password: string) => {
    const r = authTest(user, password);
    if (r.status !== 0 && !r.stdout.includes('auth failed')) throw new Error(r.stdout + r.stderr);
    return r.status === 0;
  };
  const asUser = (method: string, url: string, payload?: unknown) =>
    t.app.inject({
      method: method as 'GET',
      url,
      headers: { authorization: `Bearer ${userKey}` },
      ...(payload === undefined ? {} : { payload: payload as object }),
    });

  beforeAll(async () => {
    t = await startTestApp(dialect);
    expect((await t.call({ method: 'GET', url: '/api/mail/settings' })).json().check).toMatchObject({
      ok: true,
    });
    if (dialect === 'postgres') {
      // Dovecot connects as the mail role, which reads only the lookup views.
      const role = `mr_app_${process.pid}_${Math.floor(Math.random() * 1e6)}`;
      const password = `role-pass-${Math.floor(Math.random() * 1e9)}`;
      await ensureMailRole(t.deps.database.db, { role, password });
      const conn = mailDbConn(t.deps.database, mailRoleUrl(t.deps.database.postgresUrl!, role, password));
      const dp = dovecotPaths(t.deps.host, conn);
      writeFileSync(t.deps.host.path(MAIL_PATHS.dovecotSql), renderDovecotSql(conn, dp));
      writeFileSync(
        t.deps.host.path(appPasswordSqlConf(MAIL_PATHS.dovecotSql)),
        renderDovecotAppPasswordSql(conn),
      );
    }
    // What Mailroom rendered: the two passdbs (app passwords, then the main password), userdb...
    dovecot = await startImapDovecot({
      include: t.deps.host.path(MAIL_PATHS.dovecotMailroom),
      vmail: t.deps.host.path('/var/vmail'),
      dataDir: t.dataDir,
    });
    imapPort = dovecot.imapPort;
    const res = await t.call({
      method: 'POST',
      url: '/api/mail/users/add',
      payload: { createDomain: true, email: EMAIL, password: MAIN, quota: 10 * 1024 * 1024 },
    });
    expect(res.statusCode).toBe(200);
  });

  afterAll(async () => {
    await dovecot?.stop();
    await t?.close();
  });

  it('without MFA the main password signs in, and an app password too', async () => {
    expect(accepted(EMAIL, MAIN)).toBe(true);
    expect(accepted(EMAIL, 'not-the-password')).toBe(false);
    const login = await t.app.inject({
      method: 'POST',
      url: '/auth/login',
      payload: { email: EMAIL, password: MAIN },
    });
    expect(login.statusCode).toBe(200);
    userKey = login.json().api_key;
    const created = await asUser('POST', '/api/account/app-passwords', { name: 'Phone' });
    expect(created.statusCode).toBe(200);
    appPassword = created.json().password;
    expect(appPassword).toMatch(/^[a-z2-9]{5}(-[a-z2-9]{5}){3}$/);
    expect(accepted(EMAIL, appPassword)).toBe(true);
    // The right key with the wrong rest is refused (the whole password is verified).
    expect(accepted(EMAIL, `${appPassword.slice(0, 6)}aaaaa-bbbbb-ccccc`)).toBe(false);
  });

  it('with MFA on the main password is refused and only app passwords sign in (also over IMAP)', async () => {
    const start = await asUser('POST', '/api/account/mfa/totp', { deviceName: 'Phone app' });
    expect(start.statusCode).toBe(200);
    const { deviceId, secret } = start.json();
    const confirm = await asUser('POST', `/api/account/mfa/totp/${deviceId}/confirm`, {
      code: codeAt(secret, Date.now()),
    });
    expect(confirm.statusCode).toBe(200);
    expect((await asUser('GET', '/api/account/app-passwords')).json().mfaEnabled).toBe(true);
    expect(accepted(EMAIL, MAIN)).toBe(false);
    expect(accepted(EMAIL, appPassword)).toBe(true);
    expect(await imapLogin(imapPort, EMAIL, MAIN)).toMatch(/^NO/);
    expect(await imapLogin(imapPort, EMAIL, appPassword)).toMatch(/^OK/);
  });

  it('a revoked app password is refused; a second one keeps working; suspension refuses both', async () => {
    const second = (await asUser('POST', '/api/account/app-passwords', { name: 'Laptop' })).json();
    expect(second.password).toBeTruthy();
    const list = (await asUser('GET', '/api/account/app-passwords')).json();
    expect(list.items.map((i: { name: string }) => i.name)).toEqual(['Phone', 'Laptop']);
    expect(JSON.stringify(list)).not.toContain(appPassword);
    const first = list.items[0].id;
    expect((await asUser('DELETE', `/api/account/app-passwords/${first}`)).statusCode).toBe(200);
    expect(accepted(EMAIL, appPassword)).toBe(false);
    expect(accepted(EMAIL, second.password)).toBe(true);
    expect((await t.call({ method: 'POST', url: `/api/mail/users/suspend/${EMAIL}` })).statusCode).toBe(200);
    expect(accepted(EMAIL, second.password)).toBe(false);
    expect(await imapLogin(imapPort, EMAIL, second.password)).toMatch(/^NO/);
    // A suspension revokes them: resuming does not bring them back (issue 22 item 6).
    expect((await t.call({ method: 'POST', url: `/api/mail/users/resume/${EMAIL}` })).statusCode).toBe(200);
    expect(accepted(EMAIL, second.password)).toBe(false);
    expect(await imapLogin(imapPort, EMAIL, second.password)).toMatch(/^NO/);
    const seen = await t.call({ method: 'GET', url: `/api/mail/users/${EMAIL}/app-passwords` });
    expect(seen.json()).toMatchObject({ mfaEnabled: true, items: [] });
  });

  it('an administrator revokes an app password: IMAP refuses it at once; a password reset revokes the rest', async () => {
    // The suspension ended the owner's session. An administrator removes the MFA (the owner lost
    // the phone, say), so the owner signs in with the password alone and makes two new ones.
    const off = await t.call({ method: 'POST', url: '/api/mfa/disable', payload: { email: EMAIL } });
    expect(off.statusCode).toBe(200);
    const plain = await t.app.inject({
      method: 'POST',
      url: '/auth/login',
      payload: { email: EMAIL, password: MAIN },
    });
    expect(plain.json()).toMatchObject({ success: true });
    userKey = plain.json().api_key;
    const a = (await asUser('POST', '/api/account/app-passwords', { name: 'Tablet' })).json();
    const b = (await asUser('POST', '/api/account/app-passwords', { name: 'Desktop' })).json();
    expect(await imapLogin(imapPort, EMAIL, a.password)).toMatch(/^OK/);
    expect(await imapLogin(imapPort, EMAIL, b.password)).toMatch(/^OK/);
    const revoke = await t.call({ method: 'DELETE', url: `/api/mail/users/${EMAIL}/app-passwords/${a.id}` });
    expect(revoke.statusCode, revoke.body).toBe(200);
    expect(await imapLogin(imapPort, EMAIL, a.password)).toMatch(/^NO/);
    expect(await imapLogin(imapPort, EMAIL, b.password)).toMatch(/^OK/);
    // A row of a suspended mailbox that is still there (written back by a restore, say) is refused
    // by Dovecot's passdb itself, not only by the console.
    await t.deps.database.db
      .updateTable('mailboxes')
      .set({ status: 'suspended' })
      .where('email', '=', EMAIL)
      .execute();
    expect(await imapLogin(imapPort, EMAIL, b.password)).toMatch(/^NO/);
    await t.deps.database.db
      .updateTable('mailboxes')
      .set({ status: 'active' })
      .where('email', '=', EMAIL)
      .execute();
    expect(await imapLogin(imapPort, EMAIL, b.password)).toMatch(/^OK/);
    // A password reset by an administrator revokes every app password.
    const reset = await t.call({
      method: 'POST',
      url: `/api/mail/users/password/${EMAIL}`,
      payload: { password: 'carol-new-secret-2' },
    });
    expect(reset.statusCode).toBe(200);
    expect(await imapLogin(imapPort, EMAIL, b.password)).toMatch(/^NO/);
    expect(await imapLogin(imapPort, EMAIL, 'carol-new-secret-2')).toMatch(/^OK/);
  });
});
