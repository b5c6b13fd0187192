import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ensureInitialAdmin, listAdmins } from '../../src/features/auth/admin.service.ts';
import { dialects, startTestApp, type TestContext } from '../harness.ts';

describe.each(dialects())('first start on %s', (dialect) => {
  let t: TestContext;
  let logs: string[];
  const log = (m: string) => logs.push(m);
  beforeAll(async () => {
    t = await startTestApp(dialect);
  });
  afterAll(async () => t.close());
  beforeEach(async () => {
    logs = [];
    await t.deps.database.db.deleteFrom('admins').execute();
  });

  const signIn = (email: string, password: string) =>
    t.app.inject({ method: 'POST', url: '/auth/login', payload: { email, password } });

  it('creates the administrator named by MAILROOM_ADMIN_EMAIL/PASSWORD, without printing the password', async () => {
    await ensureInitialAdmin(
      t.deps.database.db,
      { email: 'Chief@Example.com', password: 'from-the-env-1' },
      log,
    );
    expect((await listAdmins(t.deps.database.db)).map((a) => a.email)).toEqual(['chief@example.com']);
    expect(logs).toHaveLength(1);
    expect(logs[0]).toContain('chief@example.com');
    expect(logs[0]).not.toContain('from-the-env-1');
    expect((await signIn('chief@example.com', 'from-the-env-1')).statusCode).toBe(200);
  });

  it('otherwise creates one with a random password, printed once, that signs in', async () => {
    await ensureInitialAdmin(t.deps.database.db, {}, log);
    const admins = await listAdmins(t.deps.database.db);
    expect(admins.map((a) => a.email)).toEqual(['admin@localhost.localdomain']);
    expect(logs).toHaveLength(1);
    const password = /with password: (\S+)/.exec(logs[0]!)?.[1];
    expect(password).toBeDefined();
    expect(password!.length).toBeGreaterThanOrEqual(16);
    expect((await signIn('admin@localhost.localdomain', password!)).statusCode).toBe(200);
    const row = await t.deps.database.db
      .selectFrom('admins')
      .select('password_hash')
      .executeTakeFirstOrThrow();
    expect(row.password_hash).toMatch(/^\{ARGON2ID\}\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(row.password_hash).not.toContain(password);
  });

  it('does nothing on a second start', async () => {
    await ensureInitialAdmin(t.deps.database.db, {}, log);
    const before = await t.deps.database.db.selectFrom('admins').selectAll().execute();
    await ensureInitialAdmin(t.deps.database.db, {}, log);
    await ensureInitialAdmin(
      t.deps.database.db,
      { email: 'someone@example.com', password: 'another-one-1' },
      log,
    );
    expect(await t.deps.database.db.selectFrom('admins').selectAll().execute()).toEqual(before);
    expect(logs).toHaveLength(1);
  });

  it('uses the given password with the default address when only the password is set', async () => {
    await ensureInitialAdmin(t.deps.database.db, { password: 'only-password-1' }, log);
    expect((await signIn('admin@localhost.localdomain', 'only-password-1')).statusCode).toBe(200);
    expect(logs[0]).not.toContain('only-password-1');
  });

  it('survives two instances starting at once on one database', async () => {
    await Promise.all([
      ensureInitialAdmin(t.deps.database.db, { email: 'race@example.com', password: 'race-password-1' }, log),
      ensureInitialAdmin(t.deps.database.db, { email: 'race@example.com', password: 'race-password-1' }, log),
    ]);
    expect((await listAdmins(t.deps.database.db)).map((a) => a.email)).toEqual(['race@example.com']);
  });
});
