import type { MfaUserListQuery } from '@mailroom/contract/mfa';
import { type Kysely, type RawBuilder, sql } from 'kysely';
import { type KeysetOrder, keysetAfter, keysetOrderBy } from '../../../db/keyset.ts';
import type { Database } from '../../../db/schema.ts';
import type { KeyValue } from '../../../http/cursor.ts';

/**
 * The SQL of the MFA users list: one statement over accounts (`admins`, with their `mfa_accounts`
 * and `mfa_devices`) and mailboxes without an account, so a page is read on indexes and merged in
 * the database (a keyset page cannot be stitched from per-owner reads without reading every row).
 * Read only; the rows of `admins` and `mailboxes` are written by their owners.
 */

type Db = Kysely<Database>;

/** MFA_USER_SORT_FIELDS without the direction. */
export type SortKey = 'email' | 'lastMfaLogin';

/** A row of the list: an account, or a mailbox without one (id −mailboxes.id); k is the sort value. */
export type UserRow = { id: number; email: string; mailbox_id: number | null; k: string };

/**
 * The two halves of the list, each read on its own indexes: accounts (admins) and mailboxes
 * without an account (their row id is −mailboxes.id). `key` is the sort value of a row.
 */
interface Branch {
  select: RawBuilder<unknown>;
  from: RawBuilder<unknown>;
  where: RawBuilder<unknown>;
  order: KeysetOrder;
}

function branches(key: SortKey, desc: boolean, query: MfaUserListQuery): [Branch, Branch] {
  const q = query.q?.trim().toLowerCase();
  // Prefix search on the address: an index range on both halves.
  const prefix = (col: RawBuilder<unknown>) =>
    q ? sql`and ${col} >= ${q} and ${col} < ${`${q}\u{10FFFF}`}` : sql``;
  const activeFactor = sql`exists (select 1 from mfa_devices d where d.admin_id = a.id and d.status = 'active')`;
  const mfaA =
    query.mfa === 'enabled'
      ? sql`and ${activeFactor}`
      : query.mfa === 'disabled'
        ? sql`and not ${activeFactor}`
        : sql``;
  // A mailbox without an account has no factor.
  const mfaM = query.mfa === 'enabled' ? sql`and 1 = 0` : sql``;
  const lastA = sql`coalesce(ma.last_mfa_login, '')`;
  // Never signed in: sorts as the empty string (PostgreSQL takes no bare literal in ORDER BY).
  const none = sql`cast('' as text)`;
  const admins: Branch = {
    select: sql`a.id as id, a.email as email, a.mailbox_id as mailbox_id, ${
      key === 'lastMfaLogin' ? lastA : sql`a.email`
    } as k`,
    from:
      key === 'lastMfaLogin' ? sql`admins a left join mfa_accounts ma on ma.admin_id = a.id` : sql`admins a`,
    where: sql`1 = 1 ${prefix(sql`a.email`)} ${mfaA}`,
    order: {
      keys: key === 'lastMfaLogin' ? [lastA, sql`a.email`, sql`a.id`] : [sql`a.email`, sql`a.id`],
      desc,
    },
  };
  const mailboxes: Branch = {
    select: sql`-m.id as id, m.email as email, m.id as mailbox_id, ${
      key === 'lastMfaLogin' ? none : sql`m.email`
    } as k`,
    from: sql`mailboxes m`,
    where: sql`not exists (select 1 from admins a2 where a2.mailbox_id = m.id) ${prefix(sql`m.email`)} ${mfaM}`,
    order: {
      keys: key === 'lastMfaLogin' ? [none, sql`m.email`, sql`-m.id`] : [sql`m.email`, sql`-m.id`],
      desc,
    },
  };
  return [admins, mailboxes];
}

/** The merged order: sort value, address, id (unique), all in one direction. */
const mergedOrder = (key: SortKey, desc: boolean): KeysetOrder => ({
  keys: key === 'lastMfaLogin' ? [sql`f.k`, sql`f.email`, sql`f.id`] : [sql`f.email`, sql`f.id`],
  desc,
});

/** How many people the list's search and filter match. */
export async function userListTotal(db: Db, key: SortKey, desc: boolean, query: MfaUserListQuery) {
  const [a, m] = branches(key, desc, query);
  return Number(
    (
      await sql<{ n: number }>`select (select count(*) from ${a.from} where ${a.where})
        + (select count(*) from ${m.from} where ${m.where}) as n`.execute(db)
    ).rows[0]?.n ?? 0,
  );
}

/** Up to limit + 1 rows after (or before) a cursor's keys, in the list's order seen from the cursor. */
export async function userRowsFromCursor(
  db: Db,
  key: SortKey,
  desc: boolean,
  query: MfaUserListQuery,
  cursor: { keys: KeyValue[]; before: boolean },
  limit: number,
): Promise<UserRow[]> {
  const [a, m] = branches(key, desc, query);
  const { before } = cursor;
  const half = (b: Branch) => sql`select * from (select ${b.select} from ${b.from}
      where ${b.where} and ${keysetAfter(b.order, cursor.keys, before)}
      order by ${keysetOrderBy(b.order, before)} limit ${limit + 1}) h`;
  const read = await sql<UserRow>`select f.id, f.email, f.mailbox_id, f.k from (
      ${half(a)} union all ${half(m)}) f
    order by ${keysetOrderBy(mergedOrder(key, desc), before)} limit ${limit + 1}`.execute(db);
  return read.rows;
}

/** A page of rows by offset. */
export async function userRowsAtOffset(
  db: Db,
  key: SortKey,
  desc: boolean,
  query: MfaUserListQuery,
  offset: number,
  limit: number,
): Promise<UserRow[]> {
  const [a, m] = branches(key, desc, query);
  const upTo = offset + limit;
  const half = (b: Branch) => sql`select * from (select ${b.select} from ${b.from}
      where ${b.where} order by ${keysetOrderBy(b.order, false)} limit ${upTo}) h`;
  return (
    await sql<UserRow>`select f.id, f.email, f.mailbox_id, f.k from (${half(a)} union all ${half(m)}) f
      order by ${keysetOrderBy(mergedOrder(key, desc), false)} limit ${limit} offset ${offset}`.execute(db)
  ).rows;
}
