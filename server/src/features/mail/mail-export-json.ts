import { type Kysely, sql } from 'kysely';
import { isPostgres } from '../../db/database.ts';
import { preparedQuery } from '../../db/prepared.ts';
import type { Database } from '../../db/schema.ts';
import { EXPORT_BATCH } from '../../http/stream-export.ts';

type Db = Kysely<Database>;

interface Fragment {
  /** The batch's rows as JSON objects joined by commas (null: no row). */
  body: string | null;
  last: string | null;
  n: number;
}

/**
 * One batch of mailboxes (address order, after a key) as JSON text made by the database: each row
 * is built by `json_object` / `json_build_object` in the answer's shape (Mailbox: email, domain, quota,
 * used, status, createdAt) and the batch joined in SQL, so no object per row is made in
 * JavaScript and nothing is validated again on the way out (the SQL fixes the shape and types).
 */
const batchQuery = preparedQuery<Fragment>((db) => {
  const pg = isPostgres(db as never);
  const status = sql`case when m.status = 'suspended' then 'suspended' else 'active' end`;
  const used = sql`coalesce(u.bytes, 0)`;
  const row = pg
    ? sql`json_build_object('email', m.email, 'domain', m.domain, 'quota', m.quota, 'used', ${used}, 'status', ${status}, 'createdAt', m.created_at)::text`
    : sql`json_object('email', m.email, 'domain', m.domain, 'quota', m.quota, 'used', ${used}, 'status', ${status}, 'createdAt', m.created_at)`;
  const page = db
    .selectFrom('mailboxes as m')
    .leftJoin('mail_quota_usage as u', 'u.username', 'm.email')
    .select(['m.email as email', row.as('j')])
    .where('m.email', '>', '')
    .orderBy('m.email')
    .limit(EXPORT_BATCH);
  // SQLite reads an ordered, limited subquery as a co-routine, so the aggregate sees its rows in
  // order; sorting them again inside group_concat cost a third of the batch (4 of 11.6 ms for
  // 10,000 mailboxes). PostgreSQL gains nothing from leaving it out, so it keeps the ORDER BY.
  const joined = pg
    ? sql<string | null>`string_agg(p.j, ',' order by p.email)`
    : sql<string | null>`group_concat(p.j, ',')`;
  return db
    .selectFrom(page.as('p'))
    .select([joined.as('body'), sql<string | null>`max(p.email)`.as('last'), sql<number>`count(*)`.as('n')]);
});

/**
 * Every mailbox as JSON text fragments, one per batch of `size` rows read by key (`email > last`),
 * each batch its own short query like the other exports: no connection is held between batches.
 */
export async function* mailboxJsonFragments(db: Db, size = EXPORT_BATCH): AsyncGenerator<string> {
  let after = '';
  for (;;) {
    const [f] = await batchQuery(db, [after, size]);
    const n = Number(f?.n ?? 0);
    if (n && f?.body) yield f.body;
    if (n < size || !f?.last) return;
    after = f.last;
  }
}
