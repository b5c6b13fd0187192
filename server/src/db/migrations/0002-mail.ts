import { type Kysely, sql } from 'kysely';
import { bigint, withId } from '../column-types.ts';
import { isPostgres } from '../database.ts';

/**
 * Addresses sort and compare bytewise on both databases (PostgreSQL's "C" collation, SQLite's
 * BINARY), so a prefix search is an index range scan. They are stored lower-cased.
 */
const address = (db: Kysely<unknown>) => (isPostgres(db) ? sql`text collate "C"` : sql`text`);

export async function up(db: Kysely<unknown>): Promise<void> {
  await withId(db, db.schema.createTable('mail_domains'))
    .addColumn('domain', address(db), (c) => c.notNull().unique())
    .addColumn('explicit', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('mailbox_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('alias_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();

  await withId(db, db.schema.createTable('mailboxes'))
    .addColumn('email', address(db), (c) => c.notNull().unique())
    .addColumn('domain', address(db), (c) => c.notNull())
    .addColumn('password_hash', 'text', (c) => c.notNull())
    .addColumn('quota', bigint(db), (c) => c.notNull().defaultTo(0))
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('maildir', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  // Search by domain prefix, the "active" counter (quota > 0) and the createdAt sort.
  await db.schema.createIndex('mailboxes_domain_idx').on('mailboxes').columns(['domain', 'email']).execute();
  await db.schema.createIndex('mailboxes_quota_idx').on('mailboxes').column('quota').execute();
  await db.schema
    .createIndex('mailboxes_created_idx')
    .on('mailboxes')
    .columns(['created_at', 'email'])
    .execute();

  // Keyed by source: on SQLite the table itself is the source index (WITHOUT ROWID).
  await db.schema
    .createTable('mail_aliases')
    .addColumn('source', address(db), (c) => c.primaryKey())
    .addColumn('domain', address(db), (c) => c.notNull())
    .addColumn('destination', address(db), (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .$call((b) => (isPostgres(db) ? b : b.modifyEnd(sql`without rowid`)))
    .execute();
  // Search by source-domain prefix or destination prefix.
  await db.schema
    .createIndex('mail_aliases_domain_idx')
    .on('mail_aliases')
    .columns(['domain', 'source'])
    .execute();
  await db.schema
    .createIndex('mail_aliases_destination_idx')
    .on('mail_aliases')
    .columns(['destination', 'source'])
    .execute();

  // Dovecot's dict-sql upserts on username, so it must be the primary key.
  await db.schema
    .createTable('mail_quota_usage')
    .addColumn('username', address(db), (c) => c.primaryKey())
    .addColumn('bytes', bigint(db), (c) => c.notNull().defaultTo(0))
    .addColumn('messages', bigint(db), (c) => c.notNull().defaultTo(0))
    .execute();

  await db.schema
    .createTable('mail_settings')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('settings', 'text', (c) => c.notNull())
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('applied_at', 'text')
    .addColumn('check_ok', 'integer')
    .addColumn('check_output', 'text')
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();

  await withId(db, db.schema.createTable('dkim_keys'))
    .addColumn('domain', address(db), (c) => c.notNull())
    .addColumn('selector', 'text', (c) => c.notNull())
    .addColumn('private_key', 'text', (c) => c.notNull())
    .addColumn('public_key', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('dkim_keys_domain_selector_uq', ['domain', 'selector'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const t of [
    'dkim_keys',
    'mail_settings',
    'mail_quota_usage',
    'mail_aliases',
    'mailboxes',
    'mail_domains',
  ]) {
    await db.schema.dropTable(t).execute();
  }
}
