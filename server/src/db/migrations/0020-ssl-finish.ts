import { type Kysely, sql } from 'kysely';
import { isPostgres } from '../database.ts';

/**
 * The certificate list's change counter (its ETag validator and the key of its cached counts):
 * raised by every change of the certificates and of what the list shows beside them: the SSL
 * settings (threshold, chosen mail certificate) and the mail settings (the host name whose
 * certificate is "in use"). The triggers reuse 0010's `list_versions_bump()` on PostgreSQL.
 */
const COUNTER = 'ssl_certificates';
const WATCHED = ['ssl_certificates', 'ssl_settings', 'mail_settings'];

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`insert into list_versions (name, version) values (${COUNTER}, 0)`.execute(db);
  // The list's second order (domain, then id) pages by key too.
  await db.schema
    .createIndex('ssl_certificates_domain_id_idx')
    .on('ssl_certificates')
    .columns(['domain', 'id'])
    .execute();
  // The issuer filter (`lower(issuer) = ?`) reads an index, in the list's order.
  await sql`create index ssl_certificates_issuer_idx on ssl_certificates (lower(issuer), not_after, id)`.execute(
    db,
  );
  if (isPostgres(db)) {
    for (const table of WATCHED)
      await sql`create trigger ${sql.id(`${table}_ssl_list_version`)}
        after insert or update or delete on ${sql.table(table)}
        for each statement execute function list_versions_bump(${sql.lit(COUNTER)})`.execute(db);
    return;
  }
  for (const table of WATCHED)
    for (const event of ['insert', 'update', 'delete'])
      await sql`create trigger ${sql.id(`${table}_ssl_list_version_${event}`)}
        after ${sql.raw(event)} on ${sql.table(table)}
        begin update list_versions set version = version + 1 where name = ${sql.lit(COUNTER)}; end`.execute(
        db,
      );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (isPostgres(db)) {
    for (const table of WATCHED)
      await sql`drop trigger if exists ${sql.id(`${table}_ssl_list_version`)} on ${sql.table(table)}`.execute(
        db,
      );
  } else {
    for (const table of WATCHED)
      for (const event of ['insert', 'update', 'delete'])
        await sql`drop trigger if exists ${sql.id(`${table}_ssl_list_version_${event}`)}`.execute(db);
  }
  await db.schema.dropIndex('ssl_certificates_issuer_idx').execute();
  await db.schema.dropIndex('ssl_certificates_domain_id_idx').execute();
  await sql`delete from list_versions where name = ${COUNTER}`.execute(db);
}
