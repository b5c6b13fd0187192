import type { Alias, AliasListQuery } from '@mailroom/contract/mail';
import { MAIL_LIST_DEFAULT_LIMIT, mailMessages, splitDestinations } from '@mailroom/contract/mail';
import { fieldMessages } from '@mailroom/contract/messages';
import { type ExpressionBuilder, type Kysely, sql } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { conflict, fieldError, notFound } from '../../http/errors.ts';
import { AliasGraph } from './alias-graph.ts';
import { countIntoDomain, countOutOfDomain } from './domain.service.ts';
import { isHostedDomain, isUniqueViolation, prefixRange, splitAddress } from './mail-address.ts';
import type { Page } from './mailbox.service.ts';

type Db = Kysely<Database>;

const SORTS = { source: sql`source`, destination: sql`destination`, status: sql`status` } as const;

/** A page of aliases; `q` matches the start of the source, its domain, or the destination. */
export async function listAliases(db: Db, query: AliasListQuery): Promise<Page<Alias>> {
  const q = query.q?.trim() ? prefixRange(query.q) : null;
  let rows = db.selectFrom('mail_aliases').select(['source', 'destination', 'status']);
  let count = db.selectFrom('mail_aliases').select((eb) => eb.fn.countAll<number>().as('n'));
  if (q) {
    const [lo, hi] = q;
    const match = (eb: ExpressionBuilder<Database, 'mail_aliases'>) =>
      eb.or([
        eb.and([eb('source', '>=', lo), eb('source', '<', hi)]),
        eb.and([eb('domain', '>=', lo), eb('domain', '<', hi)]),
        eb.and([eb('destination', '>=', lo), eb('destination', '<', hi)]),
      ]);
    rows = rows.where(match);
    count = count.where(match);
  }
  if (query.status) {
    rows = rows.where('status', '=', query.status);
    count = count.where('status', '=', query.status);
  }
  const sortKey = (query.sort ?? 'source').replace(/^-/, '') as keyof typeof SORTS;
  const dir = query.sort?.startsWith('-') ? sql`desc` : sql`asc`;
  rows = rows.orderBy(sql`${SORTS[sortKey]} ${dir}`);
  if (sortKey !== 'source') rows = rows.orderBy('source');
  const [items, total] = await Promise.all([
    rows
      .limit(query.limit ?? MAIL_LIST_DEFAULT_LIMIT)
      .offset(query.offset ?? 0)
      .execute(),
    q || query.status
      ? count.executeTakeFirstOrThrow().then((r) => Number(r.n))
      : db
          .selectFrom('mail_domains')
          .select((eb) => eb.fn.sum<number>('alias_count').as('n'))
          .executeTakeFirstOrThrow()
          .then((r) => Number(r.n ?? 0)),
  ]);
  return {
    items: items.map((r) => ({
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
export async function createAlias(db: Db, input: { source: string; destination: string }): Promise<{ newDomain: boolean }> {
  const { source, destination } = input;
  const { domain } = splitAddress(source);
  if (!isHostedDomain(domain)) throw fieldError('source', fieldMessages.email);
  if (splitDestinations(destination).includes(source)) throw fieldError('destination', mailMessages.aliasSelf);
  try {
    return await db.transaction().execute(async (trx) => {
      const exists = await trx.selectFrom('mail_aliases').select('id').where('source', '=', source).executeTakeFirst();
      if (exists) throw conflict(mailMessages.aliasExists(source));
      const mailbox = await trx.selectFrom('mailboxes').select('id').where('email', '=', source).executeTakeFirst();
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
  await db.transaction().execute(async (trx) => {
    const row = await trx.selectFrom('mail_aliases').select('domain').where('source', '=', source).executeTakeFirst();
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
  await db.transaction().execute(async (trx) => {
    const row = await trx.selectFrom('mail_aliases').select('id').where('source', '=', source).executeTakeFirst();
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
