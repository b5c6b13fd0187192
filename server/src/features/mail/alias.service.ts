import { auditedTransaction } from '../../apply/audit-scope.ts';
import type { Alias, AliasListQuery } from '@mailroom/contract/mail';
import { MAIL_LIST_DEFAULT_LIMIT, mailMessages, splitDestinations } from '@mailroom/contract/mail';
import { fieldMessages } from '@mailroom/contract/messages';
import { type Kysely, type RawBuilder, sql } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { conflict, fieldError, notFound } from '../../http/errors.ts';
import { AliasGraph } from './alias-graph.ts';
import { countIntoDomain, countOutOfDomain } from './domain.service.ts';
import { isHostedDomain, isUniqueViolation, prefixRange, splitAddress } from './mail-address.ts';
import { totalFromDomainCounters, totalWithStatus } from './list-totals.ts';
import { pageWindow } from './page-window.ts';
import type { Page } from './mailbox.service.ts';

type Db = Kysely<Database>;

const SORTS = { source: sql`a.source`, destination: sql`a.destination`, status: sql`a.status` } as const;

type AliasRow = { source: string; destination: string; status: string };

/** The rows of a page's keys, in the page's order. */
async function aliasRows(
  db: Db,
  keys: { source: string }[],
  order: RawBuilder<unknown>,
): Promise<AliasRow[]> {
  if (!keys.length) return [];
  return db
    .selectFrom('mail_aliases as a')
    .select(['a.source', 'a.destination', 'a.status'])
    .where(
      'a.source',
      'in',
      keys.map((k) => k.source),
    )
    .orderBy(order)
    .execute();
}

/**
 * A page of aliases; `q` matches the start of the source, of its domain, or of the destination.
 * Each search branch is an index range; their union is joined back for the page only.
 */
export async function listAliases(db: Db, query: AliasListQuery): Promise<Page<Alias>> {
  const key = (query.sort ?? 'source').replace(/^-/, '') as keyof typeof SORTS;
  const desc = query.sort?.startsWith('-') ?? false;
  const order = sql`${SORTS[key]} ${desc ? sql`desc` : sql`asc`}, a.source`;
  const status = query.status ? sql`and status = ${query.status}` : sql``;
  const limit = query.limit ?? MAIL_LIST_DEFAULT_LIMIT;
  const offset = query.offset ?? 0;
  let rows: AliasRow[];
  let total: number;
  if (query.q?.trim()) {
    const [lo, hi] = prefixRange(query.q);
    const matches = sql`select source from mail_aliases where source >= ${lo} and source < ${hi} ${status}
      union select source from mail_aliases where domain >= ${lo} and domain < ${hi} ${status}
      union select source from mail_aliases where destination >= ${lo} and destination < ${hi} ${status}`;
    // Sorted by source, the matches alone give the page; other orders need the row.
    const page =
      key === 'source'
        ? sql`select f.source, count(*) over () as total from (${matches}) f
            order by f.source ${desc ? sql`desc` : sql`asc`} limit ${limit} offset ${offset}`
        : sql`select a.source, count(*) over () as total from (${matches}) f join mail_aliases a on a.source = f.source
            order by ${order} limit ${limit} offset ${offset}`;
    const keys = (await sql<{ source: string; total: number }>`${page}`.execute(db)).rows;
    total = keys.length
      ? Number(keys[0]!.total)
      : Number(
          (await sql<{ n: number }>`select count(*) as n from (${matches}) f`.execute(db)).rows[0]?.n ?? 0,
        );
    rows = await aliasRows(db, keys, order);
  } else if (query.status) {
    // Keys from the index first, so a deep offset walks the index and not the table; then the
    // page's rows by key (a join here lets SQLite pick a plan that scans the whole table).
    const keys = (
      await sql<{ source: string }>`select a.source from mail_aliases a where 1 = 1 ${status}
        order by ${order} limit ${limit} offset ${offset}`.execute(db)
    ).rows;
    rows = await aliasRows(db, keys, order);
    total = await totalWithStatus(db, 'mail_aliases', query.status);
  } else {
    total = await totalFromDomainCounters(db, 'alias_count');
    const w = pageWindow(total, offset, limit);
    const keyOrder = w.reverse ? sql`${SORTS[key]} ${desc ? sql`asc` : sql`desc`}, a.source desc` : order;
    const keys = (
      await sql<{ source: string }>`select a.source from mail_aliases a
        order by ${keyOrder} limit ${w.limit} offset ${w.offset}`.execute(db)
    ).rows;
    rows = await aliasRows(db, keys, order);
  }
  return {
    items: rows.map((r) => ({
      source: r.source,
      destination: r.destination,
      status: r.status === 'disabled' ? 'disabled' : 'active',
    })),
    total,
  };
}

async function refuseLoop(db: Db, source: string, destination: string): Promise<void> {
  const dests = splitDestinations(destination);
  if (dests.includes(source)) throw fieldError('destination', mailMessages.aliasSelf);
  const chain = await new AliasGraph(db).findLoop(source, dests);
  if (chain) throw fieldError('destination', mailMessages.aliasLoop(chain));
}

/** Creates an alias; answers whether its domain is new. */
export async function createAlias(
  db: Db,
  input: { source: string; destination: string },
): Promise<{ newDomain: boolean }> {
  const { source, destination } = input;
  const { domain } = splitAddress(source);
  if (!isHostedDomain(domain)) throw fieldError('source', fieldMessages.email);
  if (splitDestinations(destination).includes(source))
    throw fieldError('destination', mailMessages.aliasSelf);
  try {
    return await auditedTransaction(db, async (trx) => {
      const exists = await trx
        .selectFrom('mail_aliases')
        .select('source')
        .where('source', '=', source)
        .executeTakeFirst();
      if (exists) throw conflict(mailMessages.aliasExists(source));
      const mailbox = await trx
        .selectFrom('mailboxes')
        .select('id')
        .where('email', '=', source)
        .executeTakeFirst();
      if (mailbox) throw conflict(mailMessages.aliasIsMailbox(source));
      await refuseLoop(trx, source, destination);
      const now = new Date().toISOString();
      await trx
        .insertInto('mail_aliases')
        .values({ source, domain, destination, status: 'active', created_at: now, updated_at: now })
        .execute();
      const created = await countIntoDomain(trx, domain, { aliases: 1 });
      return { newDomain: created.length > 0 };
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw conflict(mailMessages.aliasExists(source));
    throw err;
  }
}

export async function removeAlias(db: Db, source: string): Promise<void> {
  await auditedTransaction(db, async (trx) => {
    const row = await trx
      .selectFrom('mail_aliases')
      .select('domain')
      .where('source', '=', source)
      .executeTakeFirst();
    if (!row) throw notFound(mailMessages.aliasNotFound(source));
    await trx.deleteFrom('mail_aliases').where('source', '=', source).execute();
    await countOutOfDomain(trx, row.domain, { aliases: 1 });
  });
}

export async function updateAlias(
  db: Db,
  source: string,
  input: { destination?: string | undefined; status?: 'active' | 'disabled' | undefined },
): Promise<void> {
  await auditedTransaction(db, async (trx) => {
    const row = await trx
      .selectFrom('mail_aliases')
      .select('source')
      .where('source', '=', source)
      .executeTakeFirst();
    if (!row) throw notFound(mailMessages.aliasNotFound(source));
    if (input.destination !== undefined) await refuseLoop(trx, source, input.destination);
    await trx
      .updateTable('mail_aliases')
      .set({
        ...(input.destination !== undefined ? { destination: input.destination } : {}),
        ...(input.status !== undefined ? { status: input.status } : {}),
        updated_at: new Date().toISOString(),
      })
      .where('source', '=', source)
      .execute();
  });
}
