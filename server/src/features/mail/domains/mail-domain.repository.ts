import { type Insertable, type Kysely, sql } from 'kysely';
import { isPostgres } from '../../../db/database.ts';
import type { MailDomainTable } from '../../../db/mail.tables.ts';
import type { Database } from '../../../db/schema.ts';

/**
 * The SQL of `mail_domains`: the domains and their mailbox/alias counters (kept by the writes, so
 * no list is counted), and the row locks mail writes take on them (see mail-write-locks.ts).
 */

type Db = Kysely<Database>;

/** Which of these domains (at most 500) are mail domains. */
export async function existingDomains(db: Db, domains: string[]): Promise<Set<string>> {
  if (!domains.length) return new Set();
  const rows = await db.selectFrom('mail_domains').select('domain').where('domain', 'in', domains).execute();
  return new Set(rows.map((r) => r.domain));
}

/** Adds to each domain's counters, creating the missing domains (not explicit). */
export async function upsertCounters(
  db: Db,
  rows: { domain: string; mailboxes: number; aliases: number }[],
  now: string,
): Promise<void> {
  await db
    .insertInto('mail_domains')
    .values(
      rows.map((r) => ({
        domain: r.domain,
        explicit: 0,
        mailbox_count: r.mailboxes,
        alias_count: r.aliases,
        created_at: now,
      })),
    )
    .onConflict((oc) =>
      oc.column('domain').doUpdateSet((eb) => ({
        mailbox_count: eb('mail_domains.mailbox_count', '+', eb.ref('excluded.mailbox_count')),
        alias_count: eb('mail_domains.alias_count', '+', eb.ref('excluded.alias_count')),
      })),
    )
    .execute();
}

/** How many mailboxes and aliases there are, from the domains' counters. */
export async function counterSums(db: Db): Promise<{ mailboxes: number; aliases: number }> {
  const row = await db
    .selectFrom('mail_domains')
    .select((eb) => [
      eb.fn.sum<number>('mailbox_count').as('mailboxes'),
      eb.fn.sum<number>('alias_count').as('aliases'),
    ])
    .executeTakeFirst();
  return { mailboxes: Number(row?.mailboxes ?? 0), aliases: Number(row?.aliases ?? 0) };
}

/** Inserts a domain unless it exists; answers whether this call made it. */
export async function insertDomainIfMissing(db: Db, domain: string, now: string): Promise<boolean> {
  const inserted = await db
    .insertInto('mail_domains')
    .values({ domain, explicit: 0, mailbox_count: 0, alias_count: 0, created_at: now })
    .onConflict((oc) => oc.column('domain').doNothing())
    .executeTakeFirst();
  return Number(inserted.numInsertedOrUpdatedRows ?? 0) > 0;
}

export async function insertDomain(db: Db, row: Insertable<MailDomainTable>): Promise<void> {
  await db.insertInto('mail_domains').values(row).execute();
}

/** Adds to (negative: takes from) a domain's counters. */
export async function addToDomainCounters(
  db: Db,
  domain: string,
  delta: { mailboxes?: number; aliases?: number },
): Promise<void> {
  await db
    .updateTable('mail_domains')
    .set((eb) => ({
      mailbox_count: eb('mailbox_count', '+', delta.mailboxes ?? 0),
      alias_count: eb('alias_count', '+', delta.aliases ?? 0),
    }))
    .where('domain', '=', domain)
    .execute();
}

/** A domain's counters and whether it was added explicitly. */
export async function domainCounters(db: Db, domain: string) {
  return db
    .selectFrom('mail_domains')
    .select(['mailbox_count', 'alias_count', 'explicit'])
    .where('domain', '=', domain)
    .executeTakeFirst();
}

/**
 * Takes the domain's row exclusively unless another write holds it (PostgreSQL); answers whether
 * it got it. SQLite (one writer at a time) always does.
 */
export async function takeDomainRowIfFree(db: Db, domain: string): Promise<boolean> {
  if (!isPostgres(db as never)) return true;
  const mine = await db
    .selectFrom('mail_domains')
    .select('id')
    .where('domain', '=', domain)
    .forUpdate()
    .skipLocked()
    .executeTakeFirst();
  return mine !== undefined;
}

export async function deleteDomainRow(db: Db, domain: string): Promise<void> {
  await db.deleteFrom('mail_domains').where('domain', '=', domain).execute();
}

/** Deletes the domain only while nothing but `systemAliases` uses it; answers whether it did. */
export async function deleteUnusedDomain(db: Db, domain: string, systemAliases: number): Promise<boolean> {
  const res = await db
    .deleteFrom('mail_domains')
    .where('domain', '=', domain)
    .where('mailbox_count', '<=', 0)
    .where('alias_count', '<=', systemAliases)
    .executeTakeFirst();
  return Number(res.numDeletedRows) !== 0;
}

/** Every domain with its counters, by name. */
export async function allDomains(db: Db) {
  return db
    .selectFrom('mail_domains')
    .select(['domain', 'mailbox_count', 'alias_count', 'explicit'])
    .orderBy('domain')
    .execute();
}

/** Every domain's name, by name. */
export async function domainNames(db: Db): Promise<string[]> {
  return (await db.selectFrom('mail_domains').select('domain').orderBy('domain').execute()).map(
    (r) => r.domain,
  );
}

/** The domains with a catch-all (`@domain`): one key lookup per domain, never a scan of the aliases. */
export async function domainsWithCatchAll(db: Db): Promise<string[]> {
  const rows = await db
    .selectFrom('mail_domains as d')
    .innerJoin('mail_aliases as a', (j) => j.on(sql<boolean>`a.source = '@' || d.domain`))
    .select('d.domain')
    .execute();
  return rows.map((r) => r.domain);
}

/** Whether the domain was added explicitly (undefined: no such domain). */
export async function domainExplicit(db: Db, domain: string) {
  return db.selectFrom('mail_domains').select('explicit').where('domain', '=', domain).executeTakeFirst();
}

export async function markExplicit(db: Db, domain: string): Promise<void> {
  await db.updateTable('mail_domains').set({ explicit: 1 }).where('domain', '=', domain).execute();
}

/**
 * Holds a domain's row in KEY SHARE mode until the transaction ends; answers whether it exists.
 * On SQLite it only reads.
 */
export async function holdDomain(db: Db, domain: string): Promise<boolean> {
  const q = db.selectFrom('mail_domains').select('id').where('domain', '=', domain);
  return (await (isPostgres(db as never) ? q.forKeyShare() : q).executeTakeFirst()) !== undefined;
}

/** Holds these domains' rows exclusively (imports, a domain's removal), in one order. */
export async function lockDomainRows(db: Db, domains: Iterable<string>): Promise<void> {
  if (!isPostgres(db as never)) return;
  const sorted = [...new Set(domains)].sort();
  for (let i = 0; i < sorted.length; i += 500)
    await db
      .selectFrom('mail_domains')
      .select('id')
      .where('domain', 'in', sorted.slice(i, i + 500))
      .orderBy('domain')
      .forUpdate()
      .execute();
}
