import type { Kysely } from 'kysely';
import { bigint, withId } from '../column-types.ts';

export async function up(db: Kysely<unknown>): Promise<void> {
  await withId(db, db.schema.createTable('ssl_certificates'))
    .addColumn('domain', 'text', (c) => c.notNull())
    .addColumn('names', 'text', (c) => c.notNull())
    .addColumn('search', 'text', (c) => c.notNull())
    .addColumn('issuer', 'text', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('valid_from', 'text', (c) => c.notNull())
    .addColumn('valid_to', 'text', (c) => c.notNull())
    .addColumn('not_after', bigint(db), (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('key_algorithm', 'text', (c) => c.notNull())
    .addColumn('key_size', 'integer', (c) => c.notNull())
    .addColumn('signature_algorithm', 'text', (c) => c.notNull())
    .addColumn('serial', 'text', (c) => c.notNull())
    .addColumn('fingerprint', 'text', (c) => c.notNull())
    .addColumn('certificate_pem', 'text', (c) => c.notNull())
    .addColumn('chain_pem', 'text', (c) => c.notNull())
    .addColumn('key_enc', 'text', (c) => c.notNull())
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('auto_renew', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('renewal', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('ssl_certificates_expiry_idx')
    .on('ssl_certificates')
    .columns(['not_after', 'id'])
    .execute();
  await db.schema
    .createIndex('ssl_certificates_domain_idx')
    .on('ssl_certificates')
    .columns(['domain'])
    .execute();

  await withId(db, db.schema.createTable('ssl_csrs'))
    .addColumn('domain', 'text', (c) => c.notNull())
    .addColumn('names', 'text', (c) => c.notNull())
    .addColumn('csr_pem', 'text', (c) => c.notNull())
    .addColumn('key_enc', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('ssl_settings')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('settings', 'text', (c) => c.notNull())
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('mail_certificate_id', 'integer')
    .addColumn('renewal_checked_at', bigint(db))
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('ssl_settings').execute();
  await db.schema.dropTable('ssl_csrs').execute();
  await db.schema.dropTable('ssl_certificates').execute();
}
