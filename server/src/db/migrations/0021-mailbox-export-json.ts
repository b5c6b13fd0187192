import { type Kysely, sql } from 'kysely';
import { isPostgres } from '../database.ts';

/**
 * Each mailbox's JSON export object, kept as two generated pieces around the one value that lives
 * in another table (`used`, from `mail_quota_usage`): `{"email":…,"domain":…,"quota":…,"used":`
 * and `,"status":…,"createdAt":…}`. The JSON export joins them with the usage and nothing else.
 *
 * On PostgreSQL they are STORED: escaping three strings and concatenating fourteen pieces per row
 * at read time was most of the export's cost (8 of 15 ms for 10,000 mailboxes), and it is paid
 * once per write instead. `to_json` is only STABLE (it serves every type), so a generated column
 * cannot call it; `mailroom_json_text` is its text case, which depends on no setting. On SQLite
 * they are VIRTUAL (ALTER TABLE cannot add a stored column): computed on read as before, by the
 * same expression in one place.
 */
const STATUS = sql`case when status = 'suspended' then ',"status":"suspended","createdAt":' else ',"status":"active","createdAt":' end`;

export async function up(db: Kysely<unknown>): Promise<void> {
  if (isPostgres(db)) {
    await sql`create function mailroom_json_text(t text) returns text
      language sql immutable strict parallel safe
      return to_json(t)::text`.execute(db);
    await sql`alter table mailboxes
      add column json_head text generated always as (
        '{"email":' || mailroom_json_text(email) || ',"domain":' || mailroom_json_text(domain)
        || ',"quota":' || quota::text || ',"used":') stored,
      add column json_tail text generated always as (
        ${STATUS} || mailroom_json_text(created_at) || '}') stored`.execute(db);
    return;
  }
  await sql`alter table mailboxes add column json_head text generated always as (
    '{"email":' || json_quote(email) || ',"domain":' || json_quote(domain)
    || ',"quota":' || json_quote(quota) || ',"used":') virtual`.execute(db);
  await sql`alter table mailboxes add column json_tail text generated always as (
    ${STATUS} || json_quote(created_at) || '}') virtual`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('mailboxes').dropColumn('json_tail').execute();
  await db.schema.alterTable('mailboxes').dropColumn('json_head').execute();
  if (isPostgres(db)) await sql`drop function mailroom_json_text(text)`.execute(db);
}
