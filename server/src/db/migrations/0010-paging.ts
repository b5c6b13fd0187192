import { randomInt } from 'node:crypto';
import { type Kysely, sql } from 'kysely';
import { bigint } from '../column-types.ts';
import { isPostgres } from '../database.ts';

/** Which counter each table's changes raise (quota usage is part of the mailbox list). */
const WATCHED: [table: string, counter: string][] = [
  ['mailboxes', 'mailboxes'],
  ['mail_quota_usage', 'mailboxes'],
  ['mail_aliases', 'mail_aliases'],
  ['dns_records', 'dns_records'],
  ['dns_zones', 'dns_zones'],
];

/** The counters, plus `epoch`: a random number per database, so two databases never share a tag. */
export const LIST_COUNTERS = ['mailboxes', 'mail_aliases', 'dns_records', 'dns_zones'] as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('list_versions')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('version', bigint(db), (c) => c.notNull())
    .execute();
  const rows = [
    ...LIST_COUNTERS.map((name) => ({ name, version: 0 })),
    { name: 'epoch', version: randomInt(2 ** 47) },
  ];
  await sql`insert into list_versions (name, version) values ${sql.join(
    rows.map((r) => sql`(${r.name}, ${r.version})`),
  )}`.execute(db);

  if (isPostgres(db)) {
    // One bump per statement: a bulk insert of a million rows costs one counter update.
    await sql`create function list_versions_bump() returns trigger language plpgsql as $$
      begin
        update list_versions set version = version + 1 where name = TG_ARGV[0];
        return null;
      end $$`.execute(db);
    for (const [table, counter] of WATCHED)
      await sql`create trigger ${sql.id(`${table}_list_version`)}
        after insert or update or delete on ${sql.table(table)}
        for each statement execute function list_versions_bump(${sql.lit(counter)})`.execute(db);
    return;
  }
  // SQLite has row triggers only.
  for (const [table, counter] of WATCHED)
    for (const event of ['insert', 'update', 'delete'])
      await sql`create trigger ${sql.id(`${table}_list_version_${event}`)}
        after ${sql.raw(event)} on ${sql.table(table)}
        begin update list_versions set version = version + 1 where name = ${sql.lit(counter)}; end`.execute(
        db,
      );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (isPostgres(db)) {
    for (const [table] of WATCHED)
      await sql`drop trigger if exists ${sql.id(`${table}_list_version`)} on ${sql.table(table)}`.execute(db);
    await sql`drop function if exists list_versions_bump()`.execute(db);
  } else {
    for (const [table] of WATCHED)
      for (const event of ['insert', 'update', 'delete'])
        await sql`drop trigger if exists ${sql.id(`${table}_list_version_${event}`)}`.execute(db);
  }
  await db.schema.dropTable('list_versions').execute();
}
