import type { Kysely } from 'kysely';
import { bigint } from '../column-types.ts';

/**
 * SSL metrics (issue 19, Enable SSL Metrics / SSL Metrics Interval): the HTTPS requests of Apache's
 * shared access log rolled up per minute and per (protocol, cipher): requests, handshakes (first
 * request of a connection) and resumed handshakes. Written with the traffic minutes.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('web_tls_minutes')
    .addColumn('minute', bigint(db), (c) => c.notNull())
    .addColumn('protocol', 'text', (c) => c.notNull())
    .addColumn('cipher', 'text', (c) => c.notNull())
    .addColumn('requests', bigint(db), (c) => c.notNull())
    .addColumn('handshakes', bigint(db), (c) => c.notNull())
    .addColumn('resumed', bigint(db), (c) => c.notNull())
    .addPrimaryKeyConstraint('web_tls_minutes_pk', ['minute', 'protocol', 'cipher'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('web_tls_minutes').execute();
}
