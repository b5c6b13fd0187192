import type { Kysely } from 'kysely';
import { withId } from '../column-types.ts';

export async function up(db: Kysely<unknown>): Promise<void> {
  // ACME accounts, one per CA directory URL; the key is stored encrypted (security/secret-vault.ts).
  await withId(db, db.schema.createTable('acme_accounts'))
    .addColumn('directory_url', 'text', (c) => c.notNull().unique())
    .addColumn('contact_email', 'text', (c) => c.notNull())
    .addColumn('account_key', 'text', (c) => c.notNull())
    .addColumn('account_url', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('acme_accounts').execute();
}
