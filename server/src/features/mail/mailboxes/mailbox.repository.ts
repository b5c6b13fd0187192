import type { Mailbox, MailboxListQuery } from '@mailroom/contract/mail';
import type { Insertable, Updateable } from 'kysely';
import type { MailboxTable } from '../../../db/mail.tables.ts';
import { MAIL_LIST_DEFAULT_LIMIT } from '@mailroom/contract/mail';
import { type Kysely, sql } from 'kysely';
import { andDomainIn } from '../../../db/domain-scope.ts';
import { type KeysetOrder, keysetAfter, keysetOrderBy, keysetPage } from '../../../db/keyset.ts';
import type { Database } from '../../../db/schema.ts';
import {
  type CursorPage,
  type KeyValue,
  decodeCursor,
  neighbourCursors,
  refuseCursorWithOffset,
} from '../../../http/cursor.ts';
import { totalFromDomainCounters, totalWithStatus } from '../list-totals.repository.ts';
import { prefixRange } from '../mail-address.rules.ts';
import { pageWindow } from '../page-window.rules.ts';

/**
 * The SQL of `mailboxes` and of their usage rows (`mail_quota_usage`, written by Dovecot's quota
 * dictionary and read beside its mailbox): the list's pages with the row -> contract mapping, and
 * the writes the mailbox services make in their transactions.
 */

type Db = Kysely<Database>;

type Count = { n: number };

/** A page of a mail list with its total (and, for keyset paging, its neighbours' cursors). */
export type Page<T> = CursorPage<T>;

const SORTS = {
  email: sql`m.email`,
  domain: sql`m.domain`,
  quota: sql`m.quota`,
  used: sql`coalesce(u.bytes, 0)`,
  // A double on both databases, so a cursor carries the exact value the database compares.
  usage: sql`case when m.quota > 0 then cast(coalesce(u.bytes, 0) as double precision) / m.quota else 0 end`,
  status: sql`m.status`,
  createdAt: sql`m.created_at`,
} as const;

type SortKey = keyof typeof SORTS;
const NUMERIC_SORTS: ReadonlySet<SortKey> = new Set(['quota', 'used', 'usage']);

type MailboxRow = {
  email: string;
  domain: string;
  quota: number;
  status: string;
  created_at: string;
  used: number | null;
};

/** The key values of a row in the order of `key` (the sort value, then the unique address). */
function mailboxKeys(key: SortKey, r: MailboxRow): KeyValue[] {
  const quota = Number(r.quota);
  const used = Number(r.used ?? 0);
  switch (key) {
    case 'email':
      return [r.email];
    case 'domain':
      return [r.domain, r.email];
    case 'quota':
      return [quota, r.email];
    case 'used':
      return [used, r.email];
    case 'usage':
      return [quota > 0 ? used / quota : 0, r.email];
    case 'status':
      return [r.status, r.email];
    case 'createdAt':
      return [r.created_at, r.email];
  }
}

/**
 * A page of mailboxes; `q` matches the start of the address or of its domain.
 *
 * Two steps keep pages fast at 100k rows: the page's keys come from an index (each search branch
 * is an index range), then only those keys are joined to the usage table. The unfiltered total
 * comes from the domains' counters. With a `cursor` the keys are read from that position on
 * (keyset paging); the answer carries its neighbours' cursors either way.
 */
export async function listMailboxes(
  db: Db,
  query: MailboxListQuery,
  /** A domain administrator's domains (null: every mailbox). */
  scope: readonly string[] | null = null,
): Promise<Page<Mailbox>> {
  refuseCursorWithOffset(query);
  if (scope !== null && !scope.length) return { items: [], total: 0 };
  const sort = query.sort ?? 'email';
  const key = sort.replace(/^-/, '') as SortKey;
  const desc = sort.startsWith('-');
  const dir = desc ? sql`desc` : sql`asc`;
  const back = desc ? sql`asc` : sql`desc`;
  const order = key === 'email' ? sql`m.email ${dir}` : sql`${SORTS[key]} ${dir}, m.email ${dir}`;
  const usageJoin =
    key === 'used' || key === 'usage' ? sql`left join mail_quota_usage u on u.username = m.email` : sql``;
  // Status and domain filters, as one condition on the mailboxes' own columns.
  const status = sql`${query.status ? sql`and status = ${query.status}` : sql``} ${
    query.domain ? sql`and domain = ${query.domain}` : sql``
  } ${andDomainIn(scope, 'domain')}`;
  const filtered = query.status !== undefined || query.domain !== undefined || scope !== null;
  const limit = query.limit ?? MAIL_LIST_DEFAULT_LIMIT;
  const offset = query.offset ?? 0;
  const q = query.q?.trim();
  let keys: { email: string; total?: number }[];
  let total: number | null = null;
  let has = { next: false, prev: offset > 0 };
  if (query.cursor !== undefined) {
    const kinds =
      key === 'email'
        ? ['string' as const]
        : [NUMERIC_SORTS.has(key) ? ('number' as const) : ('string' as const), 'string' as const];
    const cursor = decodeCursor(query.cursor, sort, kinds);
    const before = cursor.dir === 'before';
    const o: KeysetOrder = { keys: key === 'email' ? [sql`m.email`] : [SORTS[key], sql`m.email`], desc };
    let from = sql`mailboxes m ${usageJoin}`;
    let filter = sql`${query.status ? sql`and m.status = ${query.status}` : sql``} ${
      query.domain ? sql`and m.domain = ${query.domain}` : sql``
    } ${andDomainIn(scope, 'm.domain')}`;
    if (q) {
      const [lo, hi] = prefixRange(q);
      const matches = sql`select email from mailboxes where email >= ${lo} and email < ${hi} ${status}
        union select email from mailboxes where domain >= ${lo} and domain < ${hi} ${status}`;
      from = sql`(${matches}) f join mailboxes m on m.email = f.email ${usageJoin}`;
      filter = sql``;
      total = Number(
        (await sql<Count>`select count(*) as n from (${matches}) f`.execute(db)).rows[0]?.n ?? 0,
      );
    } else if (filtered) total = await filteredTotal(db, query, status, scope);
    else total = await totalFromDomainCounters(db, 'mailbox_count');
    const read = await sql<{ email: string }>`select m.email from ${from}
        where ${keysetAfter(o, cursor.keys, before)} ${filter}
        order by ${keysetOrderBy(o, before)} limit ${limit + 1}`.execute(db);
    const page = keysetPage(read.rows, limit, before);
    keys = page.rows;
    has = before ? { next: true, prev: page.more } : { next: page.more, prev: true };
  } else if (q && key === 'email') {
    // The two branches made disjoint (domain matches whose address does not match), so each is
    // counted and cut to the page on its own index, with no union of every match to sort.
    const [lo, hi] = prefixRange(q);
    const byEmail = sql`email >= ${lo} and email < ${hi}`;
    const a = sql`select email from mailboxes where ${byEmail} ${status}`;
    const b = sql`select email from mailboxes where domain >= ${lo} and domain < ${hi} and not (${byEmail}) ${status}`;
    const upTo = offset + limit;
    keys = (
      await sql<{ email: string }>`select f.email from (
          select x.email from (${a} order by email ${dir} limit ${upTo}) x
          union all select y.email from (${b} order by email ${dir} limit ${upTo}) y) f
        order by f.email ${dir} limit ${limit} offset ${offset}`.execute(db)
    ).rows;
    const both = sql<Count>`select (select count(*) from (${a}) x) + (select count(*) from (${b}) y) as n`;
    total = Number((await both.execute(db)).rows[0]?.n ?? 0);
  } else if (q) {
    const [lo, hi] = prefixRange(q);
    const matches = sql`select email from mailboxes where email >= ${lo} and email < ${hi} ${status}
      union select email from mailboxes where domain >= ${lo} and domain < ${hi} ${status}`;
    const page = sql`select m.email, count(*) over () as total
            from (${matches}) f join mailboxes m on m.email = f.email ${usageJoin}
            order by ${order} limit ${limit} offset ${offset}`;
    keys = (await sql<{ email: string; total: number }>`${page}`.execute(db)).rows;
    if (keys.length) total = Number(keys[0]!.total);
    else {
      const c = await sql<{ n: number }>`select count(*) as n from (${matches}) f`.execute(db);
      total = Number(c.rows[0]?.n ?? 0);
    }
  } else if (filtered) {
    keys = (
      await sql<{ email: string }>`select m.email from mailboxes m ${usageJoin}
        where 1 = 1 ${status} order by ${order} limit ${limit} offset ${offset}`.execute(db)
    ).rows;
    total = await filteredTotal(db, query, status, scope);
  } else {
    total = await totalFromDomainCounters(db, 'mailbox_count');
    const w = pageWindow(total, offset, limit);
    const keyOrder = !w.reverse
      ? order
      : key === 'email'
        ? sql`m.email ${back}`
        : sql`${SORTS[key]} ${back}, m.email ${back}`;
    keys = (
      await sql<{ email: string }>`select m.email from mailboxes m ${usageJoin}
        order by ${keyOrder} limit ${w.limit} offset ${w.offset}`.execute(db)
    ).rows;
  }
  if (query.cursor === undefined) has = { next: offset + keys.length < total, prev: offset > 0 };
  if (!keys.length) return { items: [], total };
  const emails = keys.map((k) => k.email);
  const rows: MailboxRow[] = await db
    .selectFrom('mailboxes as m')
    .leftJoin('mail_quota_usage as u', 'u.username', 'm.email')
    .select([
      'm.email',
      'm.domain',
      'm.quota',
      'm.status',
      'm.created_at',
      sql<number | null>`u.bytes`.as('used'),
    ])
    .where('m.email', 'in', emails)
    .orderBy(order)
    .execute();
  return {
    items: rows.map((r) => ({
      email: r.email,
      domain: r.domain,
      quota: Number(r.quota),
      used: Number(r.used ?? 0),
      status: r.status === 'suspended' ? 'suspended' : 'active',
      createdAt: r.created_at,
    })),
    total,
    ...neighbourCursors(
      sort,
      rows.map((r) => mailboxKeys(key, r)),
      has,
    ),
  };
}

/** The total of a status and/or domain filter: from the domain's counter when only the domain is given. */
async function filteredTotal(
  db: Db,
  query: MailboxListQuery,
  conditions: ReturnType<typeof sql>,
  scope: readonly string[] | null,
): Promise<number> {
  if (scope !== null) {
    const c = await sql<Count>`select count(*) as n from mailboxes where 1 = 1 ${conditions}`.execute(db);
    return Number(c.rows[0]?.n ?? 0);
  }
  if (query.domain && !query.status) {
    const row = await db
      .selectFrom('mail_domains')
      .select('mailbox_count')
      .where('domain', '=', query.domain)
      .executeTakeFirst();
    return Number(row?.mailbox_count ?? 0);
  }
  if (!query.domain) return totalWithStatus(db, 'mailboxes', query.status!);
  const row = await db
    .selectFrom('mailboxes')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('domain', '=', query.domain)
    .where('status', '=', query.status!)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The mailbox's id, if the address is one. */
export async function mailboxIdByEmail(db: Db, email: string): Promise<number | null> {
  const row = await db.selectFrom('mailboxes').select('id').where('email', '=', email).executeTakeFirst();
  return row?.id ?? null;
}

/** Where a mailbox's mail lives, and its domain. */
export async function mailboxPlace(db: Db, email: string) {
  return db
    .selectFrom('mailboxes')
    .select(['maildir', 'domain'])
    .where('email', '=', email)
    .executeTakeFirst();
}

export async function insertMailbox(db: Db, row: Insertable<MailboxTable>): Promise<void> {
  await db.insertInto('mailboxes').values(row).execute();
}

export async function deleteMailboxRow(db: Db, email: string): Promise<void> {
  await db.deleteFrom('mailboxes').where('email', '=', email).execute();
}

/** Changes a mailbox's row; false when there is no such mailbox. */
export async function updateMailboxRow(
  db: Db,
  email: string,
  set: Updateable<MailboxTable>,
): Promise<boolean> {
  const res = await db.updateTable('mailboxes').set(set).where('email', '=', email).executeTakeFirst();
  return Number(res.numUpdatedRows) !== 0;
}

/** Forgets an address's usage row (a new mailbox of the same address must not inherit it). */
export async function deleteQuotaUsage(db: Db, email: string): Promise<void> {
  await db.deleteFrom('mail_quota_usage').where('username', '=', email).execute();
}

/**
 * Whether every one of `destinations` is a mailbox. Such an alias ends at mailboxes, which cannot
 * turn into aliases while their address locks are held, so it cannot close a loop and needs no
 * graph lock.
 */
export async function allMailboxes(db: Db, destinations: string[]): Promise<boolean> {
  const wanted = [...new Set(destinations)];
  if (!wanted.length) return true;
  const rows = await db.selectFrom('mailboxes').select('email').where('email', 'in', wanted).execute();
  return rows.length === wanted.length;
}

/** Which of these addresses are mailboxes. */
export async function existingMailboxes(db: Db, emails: string[]): Promise<string[]> {
  if (!emails.length) return [];
  return (await db.selectFrom('mailboxes').select('email').where('email', 'in', emails).execute()).map(
    (r) => r.email,
  );
}

/** How many mailboxes have a quota. */
export async function mailboxesWithQuota(db: Db): Promise<number> {
  const row = await db
    .selectFrom('mailboxes')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('quota', '>', 0)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The `count` mailboxes using the largest share of their quota. */
export async function topQuotaUsage(db: Db, count: number) {
  return db
    .selectFrom('mailboxes as m')
    .leftJoin('mail_quota_usage as u', 'u.username', 'm.email')
    .select(['m.email', 'm.quota', sql<number>`coalesce(u.bytes, 0)`.as('used')])
    .orderBy(sql`case when m.quota > 0 then coalesce(u.bytes, 0) * 1.0 / m.quota else 0 end`, 'desc')
    .orderBy('m.email')
    .limit(count)
    .execute();
}

/** These addresses' mailboxes: domain and mail folder. */
export async function mailboxPlaces(db: Db, emails: string[]) {
  return db
    .selectFrom('mailboxes')
    .select(['email', 'domain', 'maildir'])
    .where('email', 'in', emails)
    .execute();
}

/** Sets these mailboxes' status; answers how many rows changed. */
export async function setMailboxesStatus(
  db: Db,
  emails: string[],
  status: string,
  at: string,
): Promise<number> {
  const res = await db
    .updateTable('mailboxes')
    .set({ status, updated_at: at })
    .where('email', 'in', emails)
    .executeTakeFirst();
  return Number(res.numUpdatedRows);
}

/** Deletes these mailboxes and their usage rows. */
export async function deleteMailboxRows(db: Db, emails: string[]): Promise<void> {
  await db.deleteFrom('mailboxes').where('email', 'in', emails).execute();
  await db.deleteFrom('mail_quota_usage').where('username', 'in', emails).execute();
}

export async function insertMailboxes(db: Db, rows: Insertable<MailboxTable>[]): Promise<void> {
  if (rows.length) await db.insertInto('mailboxes').values(rows).execute();
}

/** Forgets these addresses' usage rows. */
export async function deleteQuotaUsageOf(db: Db, emails: string[]): Promise<void> {
  if (emails.length) await db.deleteFrom('mail_quota_usage').where('username', 'in', emails).execute();
}

/** What a mailbox's deletion needs and reports: its folder, domain, quota and status. */
export async function mailboxForDelete(db: Db, email: string) {
  return db
    .selectFrom('mailboxes')
    .select(['maildir', 'domain', 'quota', 'status'])
    .where('email', '=', email)
    .executeTakeFirst();
}
