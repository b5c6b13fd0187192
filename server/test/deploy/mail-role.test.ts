import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type CliIo, runCli } from '../../src/cli.ts';
import { loadConfig } from '../../src/config.ts';
import { type DatabaseHandle, openDatabase } from '../../src/db/database.ts';
import { ensureMailRole, MAIL_LOOKUP_SCHEMA, mailRoleUrl } from '../../src/db/mail-role.ts';
import { migrateToLatest } from '../../src/db/migrate.ts';
import { addAdmin } from '../../src/features/auth/admin.service.ts';
import { mailDbConn } from '../../src/features/mail/stack/mail-db.connection.ts';
import { POSTFIX_QUERIES, renderPostfixMap } from '../../src/features/mail/stack/postfix.renderer.ts';
import { skipLoudly } from '../skip-loudly.ts';

// Least privilege on PostgreSQL: the role the mail daemons connect as (`mailroom db mail-role`)
// reads the lookup views and nothing else of Mailroom's, and writes only Dovecot's quota counters.
const pgUrl = inject('pgUrl');
if (!pgUrl) {
  const msg = 'PostgreSQL missing (Debian package: postgresql): the mail role test is SKIPPED';
  skipLoudly(msg);
}

const NOW = '2026-01-01T00:00:00.000Z';

describe.skipIf(!pgUrl)('the PostgreSQL mail role', () => {
  const dbName = `t_mailrole_${process.pid}_${Math.floor(Math.random() * 1e6)}`;
  const role = `mr_mail_${process.pid}_${Math.floor(Math.random() * 1e6)}`;
  const password = 'role-password-1234';
  const cliRole = `${role}_cli`;
  let database: DatabaseHandle;
  let dbUrl: string;
  let roleUrl: string;
  let mail: pg.Client;
  let dataDir: string;

  beforeAll(async () => {
    const admin = new pg.Client({ connectionString: pgUrl! });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${dbName}`);
    await admin.end();
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'mailroom-mailrole-'));
    dbUrl = pgUrl!.replace(/\/postgres$/, `/${dbName}`);
    database = openDatabase({ databaseUrl: dbUrl, dataDir });
    await migrateToLatest(database.db);
    const db = database.db;
    await addAdmin(db, 'admin@example.com', 'correct-horse-battery');
    await db
      .insertInto('mail_domains')
      .values({ domain: 'example.com', explicit: 1, mailbox_count: 1, alias_count: 1, created_at: NOW })
      .execute();
    await db
      .insertInto('mailboxes')
      .values({
        email: 'alice@example.com',
        domain: 'example.com',
        password_hash: '{ARGON2ID}$argon2id$v=19$m=65536,t=3,p=1$c2FsdA$aGFzaA',
        quota: 1000,
        status: 'active',
        maildir: 'example.com/alice/',
        created_at: NOW,
        updated_at: NOW,
      })
      .execute();
    await db
      .insertInto('mail_aliases')
      .values({
        source: 'info@example.com',
        domain: 'example.com',
        destination: 'alice@example.com',
        status: 'active',
        created_at: NOW,
        updated_at: NOW,
      })
      .execute();
    await db
      .insertInto('dkim_keys')
      .values({
        domain: 'example.com',
        selector: 'mail',
        private_key: 'PRIVATE',
        public_key: 'PUBLIC',
        created_at: NOW,
      })
      .execute();

    // A statement trigger on the quota table that keeps a Mailroom table in step, written the
    // plain way (unqualified, run as the caller), like the list version counters.
    await sql`CREATE TABLE quota_bumps (n int NOT NULL)`.execute(db);
    await sql`INSERT INTO quota_bumps VALUES (0)`.execute(db);
    await sql`CREATE FUNCTION quota_bump() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN UPDATE quota_bumps SET n = n + 1; RETURN NULL; END $$`.execute(db);
    await sql`CREATE TRIGGER quota_bump AFTER INSERT OR UPDATE OR DELETE ON mail_quota_usage
      FOR EACH STATEMENT EXECUTE FUNCTION quota_bump()`.execute(db);

    const result = await ensureMailRole(db, { role, password });
    expect(result.created).toBe(true);
    // Idempotent: a second run (after an update, or to change the password) changes nothing else.
    expect((await ensureMailRole(db, { role, password })).created).toBe(false);
    roleUrl = mailRoleUrl(dbUrl, role, password);
    mail = new pg.Client({ connectionString: roleUrl });
    await mail.connect();
  });

  afterAll(async () => {
    await mail?.end();
    await database?.close();
    const admin = new pg.Client({ connectionString: pgUrl! });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
    await admin.query(`DROP ROLE IF EXISTS ${role}`);
    await admin.query(`DROP ROLE IF EXISTS ${cliRole}`);
    await admin.end();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const denied = async (text: string) => {
    const err = await mail.query(text).then(
      () => null,
      (e: Error & { code?: string }) => e,
    );
    expect(err, `${text} must be refused`).not.toBeNull();
    // 42501 insufficient_privilege; 42P01 undefined_table (not in the role's search path);
    // 42703 undefined_column (a column the view does not expose)
    expect(['42501', '42P01', '42703']).toContain(err!.code);
  };

  it('runs the rendered Postfix and Dovecot lookups unchanged, through the views', async () => {
    expect((await mail.query('SHOW search_path')).rows[0]).toEqual({ search_path: MAIL_LOOKUP_SCHEMA });
    const q = (t: string, v: string) => t.replace(/%s|%Lu/g, v);
    const pgConn = { dialect: 'postgres' } as Parameters<typeof POSTFIX_QUERIES.aliases>[0];
    expect((await mail.query(q(POSTFIX_QUERIES.domains(), 'example.com'))).rows).toEqual([
      { domain: 'example.com' },
    ]);
    expect((await mail.query(q(POSTFIX_QUERIES.mailboxes(), 'alice@example.com'))).rows).toEqual([
      { maildir: 'example.com/alice/' },
    ]);
    const members = await mail.query({
      text: q(POSTFIX_QUERIES.aliases(pgConn), 'info@example.com'),
      rowMode: 'array',
    });
    expect(members.rows).toEqual([['alice@example.com']]);
    const senders = await mail.query({
      text: q(POSTFIX_QUERIES.senderLogins(pgConn), 'info@example.com'),
      rowMode: 'array',
    });
    expect(senders.rows).toEqual([['alice@example.com']]);
    const pass = await mail.query(
      "SELECT email AS user, password_hash AS password FROM mailboxes WHERE email = 'alice@example.com' AND status = 'active'",
    );
    expect(pass.rows[0]?.password).toMatch(/^\{ARGON2ID\}/);
  });

  it('cannot read administrators, sessions, audit, DKIM keys, settings or the tables themselves', async () => {
    for (const t of ['admins', 'sessions', 'audit_log', 'dkim_keys', 'mail_settings', 'dns_zones']) {
      await denied(`SELECT * FROM public.${t}`);
      await denied(`SELECT * FROM ${t}`);
    }
    await denied('SELECT * FROM public.mailboxes');
    await denied('SELECT id, created_at FROM mailboxes');
  });

  it('cannot write anything but Dovecot’s quota counters', async () => {
    await denied(
      "INSERT INTO mailboxes (email, domain, password_hash, quota, status, maildir) VALUES ('x@example.com', 'example.com', 'h', 0, 'active', 'x/')",
    );
    await denied("UPDATE mailboxes SET status = 'active'");
    await denied("UPDATE mail_aliases SET destination = 'evil@example.net'");
    await denied('DELETE FROM mail_domains');
    await denied("UPDATE public.admins SET email = 'x'");
    await denied('CREATE TABLE mailroom_mail.x (a int)');
    await denied('CREATE TABLE public.x (a int)');
    await denied('DROP VIEW mailboxes');

    // What Dovecot's quota dictionary (dict-sql, pgsql) sends: an upsert and an increment.
    await mail.query(
      "INSERT INTO mail_quota_usage (bytes, username) VALUES (100, 'alice@example.com') ON CONFLICT (username) DO UPDATE SET bytes = EXCLUDED.bytes",
    );
    await mail.query(
      "UPDATE mail_quota_usage SET messages = messages + 2 WHERE username = 'alice@example.com'",
    );
    const used = await database.db.selectFrom('mail_quota_usage').selectAll().execute();
    expect(used.map((u) => [u.username, Number(u.bytes), Number(u.messages)])).toEqual([
      ['alice@example.com', 100, 2],
    ]);
    await denied("DELETE FROM mail_quota_usage WHERE username = 'alice@example.com'");
    // The trigger ran for both writes, as its owner (the upsert fires the INSERT and the UPDATE
    // statement triggers: 2, then 1): the role itself still cannot touch that table.
    const bumps = await sql<{ n: number }>`SELECT n FROM quota_bumps`.execute(database.db);
    expect(bumps.rows[0]?.n).toBe(3);
    await denied('UPDATE public.quota_bumps SET n = 0');
  });

  it('is what the rendered maps connect as when MAILROOM_MAIL_DB_URL is set, and postmap finds mail with it', () => {
    const conn = mailDbConn(database, roleUrl);
    expect(conn).toMatchObject({ dialect: 'postgres', user: role, password });
    const postmap = ['/usr/sbin/postmap', '/usr/bin/postmap'].find((p) => existsSync(p));
    const maps = postmap ? spawnSync('/usr/sbin/postconf', ['-m'], { encoding: 'utf8' }).stdout : '';
    if (!postmap || !/\bpgsql\b/.test(maps)) {
      const msg =
        'postmap with pgsql maps missing (Debian packages: postfix, postfix-pgsql): postmap check SKIPPED';
      skipLoudly(msg);
      return;
    }
    const file = path.join(dataDir, 'virtual-mailboxes.cf');
    writeFileSync(file, renderPostfixMap(conn, POSTFIX_QUERIES.mailboxes()));
    const r = spawnSync(postmap, ['-q', 'alice@example.com', `pgsql:${file}`], { encoding: 'utf8' });
    expect(r.stderr).toBe('');
    expect(r.stdout.trim()).toBe('example.com/alice/');
  });

  it('`mailroom db mail-role` creates the role and prints the URL for MAILROOM_MAIL_DB_URL', async () => {
    let out = '';
    let err = '';
    const io = (env: NodeJS.ProcessEnv): CliIo => ({
      out: (t) => (out += t),
      err: (t) => (err += t),
      readStdin: () => Promise.resolve(null),
      env,
    });
    const code = await runCli(
      ['db', 'mail-role', cliRole],
      io({ DATABASE_URL: dbUrl, MAILROOM_DATA_DIR: dataDir }),
    );
    expect(code, err).toBe(0);
    const url = /^MAILROOM_MAIL_DB_URL=(\S+)$/m.exec(out)?.[1];
    expect(url, out).toBeDefined();
    expect(new URL(url!).username).toBe(cliRole);
    expect(decodeURIComponent(new URL(url!).password).length).toBeGreaterThanOrEqual(24);
    // The printed URL is a valid setting, and the renderers then connect as that role.
    const config = loadConfig({ DATABASE_URL: dbUrl, MAILROOM_MAIL_DB_URL: url, MAILROOM_DATA_DIR: dataDir });
    expect(mailDbConn(database, config.mailDbUrl)).toMatchObject({ user: cliRole });
    const audit = await database.db
      .selectFrom('audit_log')
      .selectAll()
      .where('action', '=', 'db.mail_role')
      .execute();
    expect(audit.map((a) => a.target)).toEqual([cliRole]);

    // On SQLite there is no role to make: a usage error, and the setting itself is refused.
    out = '';
    err = '';
    expect(await runCli(['db', 'mail-role'], io({ MAILROOM_DATA_DIR: dataDir }))).toBe(2);
    expect(err).toContain('PostgreSQL');
    expect(() => loadConfig({ MAILROOM_MAIL_DB_URL: url, MAILROOM_DATA_DIR: dataDir })).toThrow(
      /MAILROOM_MAIL_DB_URL/,
    );
  });
});
