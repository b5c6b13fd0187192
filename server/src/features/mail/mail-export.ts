import type { Alias, Mailbox } from '@mailroom/contract/mail';
import { type Kysely, sql } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { EXPORT_BATCH } from '../../http/stream-export.ts';

type Db = Kysely<Database>;

/**
 * Every alias in source order, read by key in batches (`source > last`), each batch its own short
 * query: no connection is held between batches and the deepest batch costs what the first does.
 * Rows written while the export runs may or may not appear; none appears twice.
 */
export async function* aliasBatches(db: Db, size = EXPORT_BATCH): AsyncGenerator<Alias[]> {
  let after: string | null = null;
  for (;;) {
    let q = db
      .selectFrom('mail_aliases')
      .select(['source', 'destination', 'status', 'system'])
      .orderBy('source')
      .limit(size);
    if (after !== null) q = q.where('source', '>', after);
    const rows = await q.execute();
    if (rows.length)
      yield rows.map((r) => ({
        source: r.source,
        destination: r.destination,
        status: r.status === 'disabled' ? 'disabled' : 'active',
        system: Number(r.system) === 1,
      }));
    if (rows.length < size) return;
    after = rows[rows.length - 1]!.source;
  }
}

/** Every mailbox in address order with its usage, read by key in batches like the aliases. */
export async function* mailboxBatches(db: Db, size = EXPORT_BATCH): AsyncGenerator<Mailbox[]> {
  let after: string | null = null;
  for (;;) {
    let q = db
      .selectFrom('mailboxes as m')
      .leftJoin('mail_quota_usage as u', 'u.username', 'm.email')
      .select(['m.email', 'm.quota', 'm.status', 'm.created_at', sql<number | null>`u.bytes`.as('used')])
      .orderBy('m.email')
      .limit(size);
    if (after !== null) q = q.where('m.email', '>', after);
    const rows = await q.execute();
    if (rows.length)
      yield rows.map((r) => ({
        email: r.email,
        quota: Number(r.quota),
        used: Number(r.used ?? 0),
        status: r.status === 'suspended' ? 'suspended' : 'active',
        createdAt: r.created_at,
      }));
    if (rows.length < size) return;
    after = rows[rows.length - 1]!.email;
  }
}
