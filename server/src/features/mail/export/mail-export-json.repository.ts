import { type Kysely, type RawBuilder, sql } from 'kysely';
import { isPostgres } from '../../../db/database.ts';
import { preparedQuery } from '../../../db/prepared.ts';
import type { Database } from '../../../db/schema.ts';

type Db = Kysely<Database>;

/**
 * Rows per batch of the JSON export. A batch is one short query: its size only sets how many round
 * trips an export takes and how much it holds (about 140 bytes a row: 1.4 MB at 10,000), not how
 * long a row takes.
 */
export const JSON_EXPORT_BATCH = 10_000;

interface Fragment {
  /** The batch's rows as JSON objects joined by commas, as UTF-8 bytes (null: no row). */
  body: Uint8Array | string | null;
  last: string | null;
  n: number;
}

/**
 * One batch of mailboxes (address order, after a key) as JSON text made by the database, in the
 * answer's shape (Mailbox: email, domain, quota, used, status, createdAt), the batch joined in SQL:
 * no object per row is made in JavaScript and nothing is validated again on the way out (the SQL
 * fixes the shape and types).
 *
 * Each row's object is its two generated pieces around the usage (`json_head`, `json_tail`:
 * migration 0021; stored on PostgreSQL, where escaping and concatenating them per read was half
 * the answer's time). SQLite hands the batch over as a BLOB: its bytes become a Buffer in one
 * copy, where a text result is decoded into a JavaScript string and encoded back to UTF-8 for the
 * socket.
 */
const batchQuery = preparedQuery<Fragment>((db) => {
  const pg = isPostgres(db as never);
  const used = pg ? sql`coalesce(u.bytes, 0)::text` : sql`coalesce(u.bytes, 0)`;
  const row = sql<string>`m.json_head || ${used} || m.json_tail`;
  const page = db
    .selectFrom('mailboxes as m')
    .leftJoin('mail_quota_usage as u', 'u.username', 'm.email')
    .select(['m.email as email', row.as('j')])
    .where('m.email', '>', '')
    .orderBy('m.email')
    .limit(JSON_EXPORT_BATCH);
  // Both databases feed a plain aggregate over an ordered subquery its rows in that order (SQLite
  // reads it as a co-routine; PostgreSQL's documentation of aggregates names the sorted subquery
  // as the way to order their input). Sorting again inside the aggregate cost a third of the batch
  // on SQLite (4 of 11.6 ms) and 5 of 18 ms on PostgreSQL 15 for 10,000 mailboxes. The export
  // tests check the order across batches.
  const joined: RawBuilder<string | Uint8Array | null> = pg
    ? sql<string | null>`string_agg(p.j, ',')`
    : sql<Uint8Array | null>`cast(group_concat(p.j, ',') as blob)`;
  return db
    .selectFrom(page.as('p'))
    .select([joined.as('body'), sql<string | null>`max(p.email)`.as('last'), sql<number>`count(*)`.as('n')]);
});

/**
 * Every mailbox as JSON text, one piece per batch of `size` rows read by key (`email > last`): the
 * batch's objects joined by commas, as bytes (SQLite) or a string (PostgreSQL). Each batch is its
 * own short query like the other exports: no connection is held between batches.
 */
export async function* mailboxJsonBatches(
  db: Db,
  size = JSON_EXPORT_BATCH,
): AsyncGenerator<Uint8Array | string> {
  let after = '';
  for (;;) {
    const [f] = await batchQuery(db, [after, size]);
    const n = Number(f?.n ?? 0);
    if (n && f?.body?.length) yield f.body;
    if (n < size || !f?.last) return;
    after = f.last;
  }
}

/** The same pieces as text. */
export async function* mailboxJsonFragments(db: Db, size = JSON_EXPORT_BATCH): AsyncGenerator<string> {
  for await (const piece of mailboxJsonBatches(db, size))
    yield typeof piece === 'string'
      ? piece
      : Buffer.from(piece.buffer, piece.byteOffset, piece.byteLength).toString('utf8');
}
