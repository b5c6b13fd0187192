import type { Alias, Mailbox } from '@mailroom/contract/mail';
import { type Kysely, sql } from 'kysely';
import type { Database } from '../../../db/schema.ts';
import { EXPORT_BATCH } from '../../../http/stream-export.ts';

type Db = Kysely<Database>;

/**
 * Every alias in source order, read by key in batches (`source > last`), each batch its own short
 * query: no connection is held between batches and the deepest batch costs what the first does.
 * Rows written while the export runs may or may not appear; none appears twice.
 */
export async function* aliasBatches(
  db: Db,
  size = EXPORT_BATCH,
  /** A domain administrator's domains (null: every alias). */
  scope: readonly string[] | null = null,
): AsyncGenerator<Alias[]> {
  if (scope !== null && !scope.length) return;
  let after: string | null = null;
  // The rows come out of the database in the answer's shape: no second object per row.
  const status = sql<Alias['status']>`case when status = 'disabled' then 'disabled' else 'active' end`;
  for (;;) {
    let q = db
      .selectFrom('mail_aliases')
      .select(['source', 'destination', status.as('status'), sql<boolean>`system = 1`.as('system')])
      .orderBy('source')
      .limit(size);
    if (after !== null) q = q.where('source', '>', after);
    if (scope !== null) q = q.where('domain', 'in', scope);
    const rows = (await q.execute()).map((r) => ({ ...r, system: Boolean(r.system) }));
    if (rows.length) yield rows;
    if (rows.length < size) return;
    after = rows[rows.length - 1]!.source;
  }
}

/**
 * Every mailbox in address order with its usage, read by key in batches like the aliases. The
 * usage of a batch is read as one range of its own primary key and paired by address: a join
 * looks each mailbox's usage up one by one, which doubled the read (10k mailboxes).
 */
export async function* mailboxBatches(
  db: Db,
  size = EXPORT_BATCH,
  /** A domain administrator's domains (null: every mailbox). */
  scope: readonly string[] | null = null,
): AsyncGenerator<Mailbox[]> {
  if (scope !== null && !scope.length) return;
  let after: string | null = null;
  const status = sql<Mailbox['status']>`case when status = 'suspended' then 'suspended' else 'active' end`;
  for (;;) {
    let q = db
      .selectFrom('mailboxes')
      .select([
        'email',
        'domain',
        'quota',
        sql<number>`0`.as('used'),
        status.as('status'),
        'created_at as createdAt',
      ])
      .orderBy('email')
      .limit(size);
    if (after !== null) q = q.where('email', '>', after);
    if (scope !== null) q = q.where('domain', 'in', scope);
    const rows: Mailbox[] = await q.execute();
    if (rows.length) {
      const last = rows[rows.length - 1]!.email;
      let u = db.selectFrom('mail_quota_usage').select(['username', 'bytes']).where('username', '<=', last);
      if (after !== null) u = u.where('username', '>', after);
      const usage = new Map((await u.execute()).map((x) => [x.username, Number(x.bytes)]));
      for (const r of rows) r.used = usage.get(r.email) ?? 0;
      yield rows;
    }
    if (rows.length < size) return;
    after = rows[rows.length - 1]!.email;
  }
}
