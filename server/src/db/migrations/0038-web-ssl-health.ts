import type { Kysely } from 'kysely';

/**
 * SSL health checks (issue 19): the last TLS handshake with each served HTTPS host name (SNI) on
 * Apache's HTTPS port: the certificate it served, its days left, the protocol, or why it failed.
 * One row per name, replaced at each round, so every Mailroom instance shows the same.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('web_ssl_health')
    .addColumn('host_name', 'text', (c) => c.primaryKey())
    .addColumn('domain', 'text', (c) => c.notNull())
    .addColumn('port', 'integer', (c) => c.notNull())
    .addColumn('checked_at', 'text', (c) => c.notNull())
    .addColumn('ok', 'integer', (c) => c.notNull())
    .addColumn('fingerprint', 'text')
    .addColumn('expected_fingerprint', 'text')
    .addColumn('not_after', 'text')
    .addColumn('days_left', 'integer')
    .addColumn('protocol', 'text')
    .addColumn('error', 'text')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('web_ssl_health').execute();
}
