import { randomBytes } from 'node:crypto';
import { type Kysely, sql } from 'kysely';
import type { Database } from './schema.ts';

/**
 * PostgreSQL least privilege for the mail daemons: Postfix and Dovecot connect as a role that can
 * read only a few lookup views, never Mailroom's own tables (administrators, sessions, audit, DKIM
 * keys, DNS...).
 *
 * The views live in their own schema and carry the names of the tables they stand for, and the
 * role's search_path is that schema: the queries rendered into the daemons' files
 * (`SELECT maildir FROM mailboxes WHERE ...`) run unchanged, but reach only the columns below.
 * The one thing the role may write is Dovecot's quota counters (its quota dictionary keeps the
 * used bytes and messages per user up to date).
 */
export const MAIL_LOOKUP_SCHEMA = 'mailroom_mail';
export const DEFAULT_MAIL_ROLE = 'mailroom_mail';

interface LookupView {
  name: string;
  columns: string[];
  /** Dovecot's quota dictionary upserts through it. */
  writable?: boolean;
}

/** What Postfix's maps and Dovecot's passdb/userdb/dict read, and nothing more. */
export const LOOKUP_VIEWS: LookupView[] = [
  { name: 'mail_domains', columns: ['domain'] },
  {
    name: 'mailboxes',
    columns: ['id', 'email', 'domain', 'password_hash', 'quota', 'status', 'maildir'],
  },
  // App passwords and which mailboxes have MFA on: the passdb's main password / app password choice.
  { name: 'mailbox_app_passwords', columns: ['mailbox_id', 'lookup_key', 'password_hash'] },
  { name: 'mailbox_mfa', columns: ['mailbox_id'] },
  { name: 'mail_aliases', columns: ['source', 'domain', 'destination', 'status'] },
  { name: 'mail_quota_usage', columns: ['username', 'bytes', 'messages'], writable: true },
];

const IDENT = /^[a-z_][a-z0-9_]{0,62}$/;

export interface MailRoleOptions {
  role?: string;
  /** Absent: a random one is generated (and answered, to put in MAILROOM_MAIL_DB_URL). */
  password?: string;
}

export interface MailRoleResult {
  role: string;
  password: string;
  schema: string;
  views: string[];
  created: boolean;
}

const quoteIdent = (s: string) => `"${s.replace(/"/g, '""')}"`;
const quoteLiteral = (s: string) => `'${s.replace(/'/g, "''")}'`;

/**
 * Creates (or brings up to date) the lookup schema, its views and the mail role with a password,
 * in one transaction. Idempotent: run it again after an update, or to change the password. Needs
 * a connection that owns Mailroom's tables and may create roles (CREATEROLE or superuser).
 */
export async function ensureMailRole(
  db: Kysely<Database>,
  opts: MailRoleOptions = {},
): Promise<MailRoleResult> {
  const role = opts.role ?? DEFAULT_MAIL_ROLE;
  if (!IDENT.test(role))
    throw new Error(`role name must be lower-case letters, digits and _ (at most 63), not "${role}"`);
  const password = opts.password ?? randomBytes(24).toString('base64url');
  if (password.length < 12) throw new Error('the mail role password must be at least 12 characters');
  if (/[\s'"\\@:/?#%]/.test(password))
    throw new Error('the mail role password must not contain spaces, quotes, \\ @ : / ? # or %');

  return db.transaction().execute(async (trx) => {
    const run = (text: string) => sql.raw(text).execute(trx);
    const found = await sql<{
      n: number;
    }>`SELECT count(*)::int AS n FROM pg_roles WHERE rolname = ${role}`.execute(trx);
    const created = (found.rows[0]?.n ?? 0) === 0;
    const r = quoteIdent(role);
    const s = quoteIdent(MAIL_LOOKUP_SCHEMA);
    const { rows } = await sql<{
      schema: string;
      db: string;
    }>`SELECT current_schema() AS schema, current_database() AS db`.execute(trx);
    const tablesSchema = quoteIdent(rows[0]!.schema);
    const dbName = quoteIdent(rows[0]!.db);

    if (created) await run(`CREATE ROLE ${r} LOGIN`);
    await run(
      `ALTER ROLE ${r} WITH LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOINHERIT NOREPLICATION NOBYPASSRLS ` +
        `PASSWORD ${quoteLiteral(password)}`,
    );
    await run(`ALTER ROLE ${r} IN DATABASE ${dbName} SET search_path = ${s}`);
    await run(`CREATE SCHEMA IF NOT EXISTS ${s}`);
    await run(`REVOKE ALL ON SCHEMA ${s} FROM PUBLIC`);
    await run(`GRANT USAGE ON SCHEMA ${s} TO ${r}`);
    // Whatever the role may have been given before on Mailroom's own tables goes.
    await run(`REVOKE ALL ON ALL TABLES IN SCHEMA ${tablesSchema} FROM ${r}`);
    await run(`REVOKE CREATE ON SCHEMA ${tablesSchema} FROM ${r}`);
    // Triggers on a table the role writes run as the role, with its search_path (the views'
    // schema), so one that keeps Mailroom's own tables in step (a list version counter, say) would
    // find nothing and have no right there: run them as their owner, on Mailroom's schema.
    const writable = LOOKUP_VIEWS.filter((v) => v.writable).map((v) => `${rows[0]!.schema}.${v.name}`);
    const fns = await sql<{ fn: string }>`SELECT DISTINCT t.tgfoid::regprocedure::text AS fn FROM pg_trigger t
      WHERE NOT t.tgisinternal AND t.tgrelid IN (SELECT to_regclass(n) FROM unnest(${writable}::text[]) AS n)`.execute(
      trx,
    );
    for (const { fn } of fns.rows)
      await run(`ALTER FUNCTION ${fn} SECURITY DEFINER SET search_path = ${tablesSchema}, pg_temp`);
    for (const v of LOOKUP_VIEWS) {
      const view = `${s}.${quoteIdent(v.name)}`;
      const cols = v.columns.map(quoteIdent).join(', ');
      // Drop and create (not CREATE OR REPLACE): the column list may shrink between versions.
      await run(`DROP VIEW IF EXISTS ${view}`);
      await run(`CREATE VIEW ${view} AS SELECT ${cols} FROM ${tablesSchema}.${quoteIdent(v.name)}`);
      await run(`REVOKE ALL ON ${view} FROM PUBLIC`);
      await run(`GRANT ${v.writable ? 'SELECT, INSERT, UPDATE' : 'SELECT'} ON ${view} TO ${r}`);
    }
    return {
      role,
      password,
      schema: MAIL_LOOKUP_SCHEMA,
      views: LOOKUP_VIEWS.map((v) => `${MAIL_LOOKUP_SCHEMA}.${v.name}`),
      created,
    };
  });
}

/** The URL the mail daemons use: Mailroom's own URL with the mail role's name and password. */
export function mailRoleUrl(databaseUrl: string, role: string, password: string): string {
  const url = new URL(databaseUrl);
  url.username = encodeURIComponent(role);
  url.password = encodeURIComponent(password);
  return url.toString();
}
