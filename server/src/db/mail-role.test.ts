import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../config.ts';
import { ensureMailRole, LOOKUP_VIEWS, mailRoleUrl } from './mail-role.ts';

describe('the mail role, without a database', () => {
  it('builds the daemons’ URL from Mailroom’s own, with the role and an encoded password', () => {
    const url = mailRoleUrl(
      'postgres://app:secret@db.example:6543/mailroom?sslmode=require',
      'mailroom_mail',
      'p4ss-word_x',
    );
    expect(url).toBe('postgres://mailroom_mail:p4ss-word_x@db.example:6543/mailroom?sslmode=require');
  });

  it('refuses role names and passwords that could break the SQL or the rendered files', async () => {
    const db = {} as never; // never reached: the checks come first
    await expect(ensureMailRole(db, { role: 'Bad-Name' })).rejects.toThrow(/role name/);
    await expect(ensureMailRole(db, { role: 'x; drop table admins' })).rejects.toThrow(/role name/);
    await expect(ensureMailRole(db, { password: 'short' })).rejects.toThrow(/at least 12/);
    await expect(ensureMailRole(db, { password: "long-enough-but-'quoted'" })).rejects.toThrow(
      /must not contain/,
    );
    await expect(ensureMailRole(db, { password: 'long enough with spaces' })).rejects.toThrow(
      /must not contain/,
    );
  });

  it('exposes no secret of Mailroom’s own in the views', () => {
    const names = LOOKUP_VIEWS.map((v) => v.name);
    expect(names).not.toContain('admins');
    expect(names).not.toContain('dkim_keys');
    expect(LOOKUP_VIEWS.filter((v) => v.writable).map((v) => v.name)).toEqual(['mail_quota_usage']);
  });

  it('MAILROOM_MAIL_DB_URL is a PostgreSQL URL, and only with a PostgreSQL database', () => {
    const pgEnv = { DATABASE_URL: 'postgres://app@127.0.0.1/mailroom' };
    expect(
      loadConfig({ ...pgEnv, MAILROOM_MAIL_DB_URL: 'postgres://m:p@127.0.0.1/mailroom' }).mailDbUrl,
    ).toBe('postgres://m:p@127.0.0.1/mailroom');
    expect(loadConfig(pgEnv).mailDbUrl).toBeUndefined();
    expect(() => loadConfig({ ...pgEnv, MAILROOM_MAIL_DB_URL: 'mysql://x' })).toThrow(/MAILROOM_MAIL_DB_URL/);
    expect(() => loadConfig({ MAILROOM_MAIL_DB_URL: 'postgres://m:p@127.0.0.1/mailroom' })).toThrow(
      ConfigError,
    );
  });
});
