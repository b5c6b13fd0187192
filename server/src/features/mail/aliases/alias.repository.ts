import type { Alias, AliasListQuery } from '@mailroom/contract/mail';
import { MAIL_LIST_DEFAULT_LIMIT } from '@mailroom/contract/mail';
import { TOTAL_CAP } from '@mailroom/contract/common';
import { type Insertable, type Kysely, type RawBuilder, type Updateable, sql } from 'kysely';
import { andDomainIn } from '../../../db/domain-scope.ts';
import { isPostgres } from '../../../db/database.ts';
import { type KeysetOrder, keysetAfter, keysetOrderBy, keysetPage } from '../../../db/keyset.ts';
import type { MailAliasTable } from '../../../db/mail.tables.ts';
import type { Database } from '../../../db/schema.ts';
import {
  type CursorPage,
  type KeyValue,
  decodeCursor,
  neighbourCursors,
  refuseCursorWithOffset,
} from '../../../http/cursor.ts';
import {
  cappedCounts,
  cappedSum,
  totalFromDomainCounters,
  totalWithStatus,
} from '../list-totals.repository.ts';
import { prefixRange } from '../mail-address.rules.ts';
import { pageWindow } from '../page-window.rules.ts';

/**
 * The SQL of `mail_aliases`: the list's pages with the row -> contract mapping, and the reads and
 * writes the alias services make in their transactions.
 */

type Db = Kysely<Database>;

const SORTS = { source: sql`a.source`, destination: sql`a.destination`, status: sql`a.status` } as const;

/** At most this many rows walked in source order for a dense search branch's page (see `listAliases`). */
const ORDERED_SCAN_ROWS = 50_000;

/** Offsets up to this are read in one query from the list's start (see `listAliases`). */
const SHALLOW = 1000;

type AliasRow = { source: string; destination: string; status: string; system: number };

/** The rows of a page's keys, in the page's order. */
async function aliasRows(
  db: Db,
  keys: { source: string }[],
  order: RawBuilder<unknown>,
): Promise<AliasRow[]> {
  if (!keys.length) return [];
  return db
    .selectFrom('mail_aliases as a')
    .select(['a.source', 'a.destination', 'a.status', 'a.system'])
    .where(
      'a.source',
      'in',
      keys.map((k) => k.source),
    )
    .orderBy(order)
    .execute();
}

/** The key values of a row in the order of `key` (the sort value, then the unique source). */
const aliasKeys = (key: keyof typeof SORTS, r: AliasRow): KeyValue[] =>
  key === 'source' ? [r.source] : [r[key], r.source];

interface SearchBranch {
  where: RawBuilder<unknown>;
  /** SQLite's index for the branch: a range on one index, never a scan of the list in its order. */
  hint: RawBuilder<unknown>;
}

/**
 * `q` as three disjoint conditions: the source starts with it; else its domain does; else its
 * destination does. Disjoint, each is counted and cut on its own index with no union to sort. A
 * source holds one `@` (the schema's address rule), so "its domain starts with q" is `@q` in it.
 */
function searchBranches(db: Db, q: string): SearchBranch[] {
  const [lo, hi] = prefixRange(q);
  const pg = isPostgres(db as never);
  const bySource = sql`a.source >= ${lo} and a.source < ${hi}`;
  const domainHas = pg ? sql`strpos(a.source, ${'@' + lo}) > 0` : sql`instr(a.source, ${'@' + lo}) > 0`;
  const hint = (index: string) => (pg ? sql`` : sql`indexed by ${sql.raw(index)}`);
  return [
    { where: bySource, hint: sql`` },
    {
      where: sql`a.domain >= ${lo} and a.domain < ${hi} and not (${bySource})`,
      hint: hint('mail_aliases_domain_idx'),
    },
    {
      where: sql`a.destination >= ${lo} and a.destination < ${hi} and not (${bySource}) and not (${domainHas})`,
      hint: hint('mail_aliases_destination_idx'),
    },
  ];
}

/**
 * A page of aliases; `q` matches the start of the source, of its domain, or of the destination.
 * Each search branch is an index range; their union is joined back for the page only. With a
 * `cursor` the page is read by key from that position (keyset paging); with an offset, from the
 * nearer end of the list. Either way the answer carries its neighbours' cursors.
 */
export async function listAliases(
  db: Db,
  query: AliasListQuery,
  /** A domain administrator's domains (null: every alias). */
  scope: readonly string[] | null = null,
): Promise<CursorPage<Alias>> {
  refuseCursorWithOffset(query);
  if (scope !== null && !scope.length) return { items: [], total: 0 };
  const sort = query.sort ?? 'source';
  const key = sort.replace(/^-/, '') as keyof typeof SORTS;
  const desc = sort.startsWith('-');
  const dir = desc ? sql`desc` : sql`asc`;
  const order = key === 'source' ? sql`a.source ${dir}` : sql`${SORTS[key]} ${dir}, a.source ${dir}`;
  const status = sql`${query.status ? sql`and status = ${query.status}` : sql``} ${andDomainIn(scope, 'domain')}`;
  const limit = query.limit ?? MAIL_LIST_DEFAULT_LIMIT;
  const offset = query.offset ?? 0;
  const q = query.q?.trim();
  const branches = q ? searchBranches(db, q) : null;
  // Only the sort's keys: by source a branch reads its index alone (the rows are read for the page).
  const keyColumns = key === 'source' ? sql`a.source` : sql`a.source, ${SORTS[key]}`;
  const branchCounts = branches
    ? await cappedCounts(
        db,
        branches.map((b) => sql`select 1 from mail_aliases a ${b.hint} where ${b.where} ${status}`),
      )
    : null;
  // SQLite sorts every match of a branch for its first rows; when a branch holds many of the
  // list's rows, walking the table (WITHOUT ROWID: in source order) to the page's end reads less.
  const listSize =
    branchCounts?.some((n) => n > TOTAL_CAP) && key === 'source' && !isPostgres(db as never)
      ? await totalFromDomainCounters(db, 'alias_count')
      : 0;
  const hintOf = (b: SearchBranch, i: number, k: number) =>
    listSize && branchCounts![i]! > TOTAL_CAP && k * listSize <= ORDERED_SCAN_ROWS * branchCounts![i]!
      ? sql`not indexed`
      : b.hint;
  /** The disjoint branches of a search, each cut to `k` rows in `by` on its own index. */
  const branchUnion = (w: SearchBranch[], extra: RawBuilder<unknown>, by: RawBuilder<unknown>, k: number) =>
    sql.join(
      w.map(
        (b, i) => sql`select * from (select ${keyColumns} from mail_aliases a ${hintOf(b, i, k)}
          where ${b.where} ${status} ${extra} order by ${by} limit ${k}) x`,
      ),
      sql` union all `,
    );
  let capped = false;
  const countTotal = async (): Promise<number> => {
    if (branchCounts) {
      const n = cappedSum(branchCounts);
      capped = n.capped;
      return n.total;
    }
    if (scope !== null)
      return Number(
        (await sql<{ n: number }>`select count(*) as n from mail_aliases where 1 = 1 ${status}`.execute(db))
          .rows[0]?.n ?? 0,
      );
    if (query.status) return totalWithStatus(db, 'mail_aliases', query.status);
    return totalFromDomainCounters(db, 'alias_count');
  };
  let rows: AliasRow[];
  let total: number;
  let has: { next: boolean; prev: boolean };
  if (query.cursor !== undefined) {
    const cursor = decodeCursor(query.cursor, sort, key === 'source' ? ['string'] : ['string', 'string']);
    const before = cursor.dir === 'before';
    const o: KeysetOrder = { keys: key === 'source' ? [sql`a.source`] : [SORTS[key], sql`a.source`], desc };
    const after = keysetAfter(o, cursor.keys, before);
    const by = keysetOrderBy(o, before);
    const read = branches
      ? {
          rows: await aliasRows(
            db,
            (
              await sql<{
                source: string;
              }>`select a.source from (${branchUnion(branches, sql`and ${after}`, by, limit + 1)}) a
                order by ${by} limit ${limit + 1}`.execute(db)
            ).rows,
            by,
          ),
        }
      : await sql<AliasRow>`select a.source, a.destination, a.status, a.system from mail_aliases a
          where ${after} ${status} order by ${by} limit ${limit + 1}`.execute(db);
    const page = keysetPage(read.rows, limit, before);
    rows = page.rows;
    // The cursor's own row lies on the other side, so that side always has a page.
    has = before ? { next: true, prev: page.more } : { next: page.more, prev: true };
    total = await countTotal();
  } else if (branches) {
    // Each branch gives at most the rows up to the page's end, in the page's order, so a search
    // matching most of the list costs the page and three index counts, not a sort of every match.
    const keys = (
      await sql<{
        source: string;
      }>`select a.source from (${branchUnion(branches, sql``, order, offset + limit)}) a
        order by ${order} limit ${limit} offset ${offset}`.execute(db)
    ).rows;
    rows = await aliasRows(db, keys, order);
    total = await countTotal();
    // Past a capped count the rows still go on: a full page says there may be more.
    has = { next: capped ? rows.length === limit : offset + rows.length < total, prev: offset > 0 };
  } else if (query.status || scope !== null) {
    // Keys from the index first, so a deep offset walks the index and not the table; then the
    // page's rows by key (a join here lets SQLite pick a plan that scans the whole table).
    const keys = (
      await sql<{ source: string }>`select a.source from mail_aliases a where 1 = 1 ${status}
        order by ${order} limit ${limit} offset ${offset}`.execute(db)
    ).rows;
    rows = await aliasRows(db, keys, order);
    total = await countTotal();
    has = { next: offset + rows.length < total, prev: offset > 0 };
  } else if (offset + limit <= SHALLOW) {
    // A first page (what the console and scripts ask most): one query in the asked order, which
    // reads the index from its start; no key-then-row round trip, no `in` list of 100 keys.
    total = await countTotal();
    rows = (
      await sql<AliasRow>`select a.source, a.destination, a.status, a.system from mail_aliases a
        order by ${order} limit ${limit} offset ${offset}`.execute(db)
    ).rows;
    has = { next: offset + rows.length < total, prev: offset > 0 };
  } else {
    total = await countTotal();
    const w = pageWindow(total, offset, limit);
    const back = desc ? sql`asc` : sql`desc`;
    const keyOrder = !w.reverse
      ? order
      : key === 'source'
        ? sql`a.source ${back}`
        : sql`${SORTS[key]} ${back}, a.source ${back}`;
    const keys = (
      await sql<{ source: string }>`select a.source from mail_aliases a
        order by ${keyOrder} limit ${w.limit} offset ${w.offset}`.execute(db)
    ).rows;
    rows = await aliasRows(db, keys, order);
    has = { next: offset + rows.length < total, prev: offset > 0 };
  }
  return {
    items: rows.map((r) => ({
      source: r.source,
      destination: r.destination,
      status: r.status === 'disabled' ? 'disabled' : 'active',
      system: Number(r.system) === 1,
    })),
    total,
    ...(capped ? { capped } : {}),
    ...neighbourCursors(
      sort,
      rows.map((r) => aliasKeys(key, r)),
      has,
    ),
  };
}

/** What the address is as an alias: its domain and whether Mailroom made it (a required address). */
export async function aliasKind(db: Db, source: string) {
  return db
    .selectFrom('mail_aliases')
    .select(['source', 'domain', 'system'])
    .where('source', '=', source)
    .executeTakeFirst();
}

/** An alias as a delete records it (its before). */
export async function aliasForDelete(db: Db, source: string) {
  return db
    .selectFrom('mail_aliases')
    .select(['source', 'domain', 'destination', 'status', 'system'])
    .where('source', '=', source)
    .executeTakeFirst();
}

/** These sources' aliases. */
export async function aliasKinds(db: Db, sources: string[]) {
  return db
    .selectFrom('mail_aliases')
    .select(['source', 'domain', 'system'])
    .where('source', 'in', sources)
    .execute();
}

export async function insertAlias(db: Db, row: Insertable<MailAliasTable>): Promise<void> {
  await db.insertInto('mail_aliases').values(row).execute();
}

export async function updateAliasRow(db: Db, source: string, set: Updateable<MailAliasTable>): Promise<void> {
  await db.updateTable('mail_aliases').set(set).where('source', '=', source).execute();
}

export async function deleteAliasRows(db: Db, sources: string[]): Promise<void> {
  await db.deleteFrom('mail_aliases').where('source', 'in', sources).execute();
}

/** Drops Mailroom's own alias of a required address (a mailbox or the administrator's takes it). */
export async function deleteSystemAlias(db: Db, source: string): Promise<void> {
  await db.deleteFrom('mail_aliases').where('source', '=', source).where('system', '=', 1).execute();
}

/** Which of these sources are aliases. */
export async function existingSources(db: Db, sources: string[]): Promise<string[]> {
  if (!sources.length) return [];
  return (await db.selectFrom('mail_aliases').select('source').where('source', 'in', sources).execute()).map(
    (r) => r.source,
  );
}

export async function insertAliases(db: Db, rows: Insertable<MailAliasTable>[]): Promise<void> {
  if (rows.length) await db.insertInto('mail_aliases').values(rows).execute();
}

/** How many of a domain's aliases are system aliases. */
export async function systemAliasCount(db: Db, domain: string): Promise<number> {
  const row = await db
    .selectFrom('mail_aliases')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('domain', '=', domain)
    .where('system', '=', 1)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** Removes a domain's system aliases. */
export async function dropSystemAliases(db: Db, domain: string): Promise<void> {
  await db.deleteFrom('mail_aliases').where('domain', '=', domain).where('system', '=', 1).execute();
}

/** Which of these sources are aliases that Mailroom made (system 1) or an administrator did (0). */
export async function aliasSourcesOfKind(db: Db, sources: string[], system: 0 | 1): Promise<string[]> {
  if (!sources.length) return [];
  const rows = await db
    .selectFrom('mail_aliases')
    .select('source')
    .where('source', 'in', sources)
    .where('system', '=', system)
    .execute();
  return rows.map((r) => r.source);
}

/** Drops Mailroom's own aliases of these sources; answers each dropped alias's domain. */
export async function deleteSystemAliasesOf(db: Db, sources: string[]): Promise<string[]> {
  if (!sources.length) return [];
  const rows = await db
    .deleteFrom('mail_aliases')
    .where('source', 'in', sources)
    .where('system', '=', 1)
    .returning('domain')
    .execute();
  return rows.map((r) => r.domain);
}
