import type { Kysely } from 'kysely';
import { bigint, withId } from '../column-types.ts';

export async function up(db: Kysely<unknown>): Promise<void> {
  await withId(db, db.schema.createTable('admins'))
    .addColumn('email', 'text', (c) => c.notNull().unique())
    .addColumn('password_hash', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();

  await withId(db, db.schema.createTable('sessions'))
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('admin_id', 'integer', (c) => c.notNull().references('admins.id').onDelete('cascade'))
    .addColumn('created_at', bigint(db), (c) => c.notNull())
    .addColumn('last_seen_at', bigint(db), (c) => c.notNull())
    .addColumn('expires_at', bigint(db), (c) => c.notNull())
    .addColumn('ip', 'text')
    .addColumn('user_agent', 'text')
    .execute();
  await db.schema.createIndex('sessions_admin_idx').on('sessions').column('admin_id').execute();

  await withId(db, db.schema.createTable('audit_log'))
    .addColumn('at', 'text', (c) => c.notNull())
    .addColumn('actor', 'text')
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('target', 'text')
    .addColumn('ip', 'text')
    .addColumn('outcome', 'text', (c) => c.notNull())
    .addColumn('details', 'text')
    .execute();
  await db.schema.createIndex('audit_log_at_idx').on('audit_log').column('at').execute();
  await db.schema.createIndex('audit_log_action_idx').on('audit_log').columns(['action', 'at']).execute();

  await withId(db, db.schema.createTable('login_attempts'))
    .addColumn('bucket', 'text', (c) => c.notNull())
    .addColumn('at', bigint(db), (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('login_attempts_bucket_idx')
    .on('login_attempts')
    .columns(['bucket', 'at'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const t of ['login_attempts', 'audit_log', 'sessions', 'admins'])
    await db.schema.dropTable(t).execute();
}
