import { auditedTransaction } from '../../apply/audit-scope.ts';
import type { MailDomain } from '@mailroom/contract/mail';
import { mailMessages } from '@mailroom/contract/mail';
import { type Kysely, sql } from 'kysely';
import { isPostgres } from '../../db/database.ts';
import type { Database } from '../../db/schema.ts';
import { conflict, fieldError, notFound } from '../../http/errors.ts';
import { isUniqueViolation } from './mail-address.ts';
import { holdDomain, lockDomainRows } from './mail-write-locks.ts';
import { dropSystemAliases, ensureSystemAliases, systemAliasCount } from './system-aliases.ts';

type Db = Kysely<Database>;

/**
 * Adds `delta` mailboxes/aliases to each domain's counters, creating missing domains.
 * Answers the domains that did not exist before.
 */
export async function countIntoDomains(
  db: Db,
  counts: Map<string, { mailboxes: number; aliases: number }>,
): Promise<string[]> {
  const domains = [...counts.keys()];
  const created: string[] = [];
  const now = new Date().toISOString();
  for (let i = 0; i < domains.length; i += 500) {
    const chunk = domains.slice(i, i + 500);
    const existing = new Set(
      (await db.selectFrom('mail_domains').select('domain').where('domain', 'in', chunk).execute()).map(
        (r) => r.domain,
      ),
    );
    for (const d of chunk) if (!existing.has(d)) created.push(d);
    await db
      .insertInto('mail_domains')
      .values(
        chunk.map((domain) => ({
          domain,
          explicit: 0,
          mailbox_count: counts.get(domain)!.mailboxes,
          alias_count: counts.get(domain)!.aliases,
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
  // A new domain answers postmaster@ and abuse@ from the start.
  await ensureSystemAliases(db, created);
  return created;
}

/** How many mailboxes and aliases there are, from the domains' counters (no table is counted). */
export async function tableSizes(db: Db): Promise<{ mailboxes: number; aliases: number }> {
  const row = await db
    .selectFrom('mail_domains')
    .select((eb) => [
      eb.fn.sum<number>('mailbox_count').as('mailboxes'),
      eb.fn.sum<number>('alias_count').as('aliases'),
    ])
    .executeTakeFirst();
  return { mailboxes: Number(row?.mailboxes ?? 0), aliases: Number(row?.aliases ?? 0) };
}

export const countIntoDomain = (db: Db, domain: string, delta: { mailboxes?: number; aliases?: number }) =>
  countIntoDomains(db, new Map([[domain, { mailboxes: delta.mailboxes ?? 0, aliases: delta.aliases ?? 0 }]]));

/**
 * The start of a single mailbox or alias create: holds the domain's row (KEY SHARE, see
 * mail-write-locks.ts) so it cannot be removed meanwhile, creating it when `create` says so.
 * Answers whether the domain is new: the create then adds its system aliases after its own rows
 * (the lists in their order), and counts itself in at its end (`addToCounters`).
 */
export async function enterDomain(
  db: Db,
  domain: string,
  create: boolean | undefined,
  field: string,
): Promise<boolean> {
  if (await holdDomain(db, domain)) return false;
  if (!create) throw fieldError(field, mailMessages.domainUnknown(domain));
  const inserted = await db
    .insertInto('mail_domains')
    .values({ domain, explicit: 0, mailbox_count: 0, alias_count: 0, created_at: new Date().toISOString() })
    .onConflict((oc) => oc.column('domain').doNothing())
    .executeTakeFirst();
  // Another create made it first (its insert committed while ours waited): hold that row.
  if (!Number(inserted.numInsertedOrUpdatedRows ?? 0)) {
    if (!(await holdDomain(db, domain))) throw conflict(mailMessages.domainUnknown(domain));
    return false;
  }
  return true;
}

/**
 * Adds to (or, negative, takes from) a domain's counters: the last statement of a create, so the
 * row's write lock is brief.
 */
export async function addToCounters(
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

/**
 * Lowers a domain's counters; a domain nothing uses any more (and not added explicitly) goes,
 * with its system aliases (they never keep a domain alive). Answers whether it went.
 */
export async function countOutOfDomain(
  db: Db,
  domain: string,
  delta: { mailboxes?: number; aliases?: number },
): Promise<boolean> {
  await addToCounters(db, domain, { mailboxes: -(delta.mailboxes ?? 0), aliases: -(delta.aliases ?? 0) });
  const row = await db
    .selectFrom('mail_domains')
    .select(['mailbox_count', 'alias_count', 'explicit'])
    .where('domain', '=', domain)
    .executeTakeFirst();
  if (!row || Number(row.explicit) === 1 || Number(row.mailbox_count) > 0) return false;
  if (Number(row.alias_count) > (await systemAliasCount(db, domain))) return false;
  // Another write holding the row (a create about to count itself in) keeps the domain: taking the
  // row exclusively would wait for it while it waits for the list this removal holds.
  if (isPostgres(db as never)) {
    const mine = await db
      .selectFrom('mail_domains')
      .select('id')
      .where('domain', '=', domain)
      .forUpdate()
      .skipLocked()
      .executeTakeFirst();
    if (!mine) return false;
  }
  await dropSystemAliases(db, domain);
  await db.deleteFrom('mail_domains').where('domain', '=', domain).execute();
  return true;
}

/**
 * Mail domains with their counts, DKIM key state, catch-all, and the DNS zone hosted here that
 * holds their records (the domain itself or the nearest parent zone), if any.
 */
export async function listDomains(db: Db): Promise<MailDomain[]> {
  const [rows, keys, zones, catchAlls] = await Promise.all([
    db
      .selectFrom('mail_domains')
      .select(['domain', 'mailbox_count', 'alias_count', 'explicit'])
      .orderBy('domain')
      .execute(),
    db.selectFrom('dkim_keys').select('domain').distinct().execute(),
    db.selectFrom('dns_zones').select('domain').execute(),
    // A catch-all's source is `@domain`: one key lookup per domain, never a scan of the aliases.
    db
      .selectFrom('mail_domains as d')
      .innerJoin('mail_aliases as a', (j) => j.on(sql<boolean>`a.source = '@' || d.domain`))
      .select('d.domain')
      .execute(),
  ]);
  const keyed = new Set(keys.map((k) => k.domain));
  const hosted = new Set(zones.map((z) => z.domain));
  const caught = new Set(catchAlls.map((c) => c.domain));
  const zoneOf = (domain: string): string | null => {
    for (let d = domain; d.includes('.'); d = d.slice(d.indexOf('.') + 1)) if (hosted.has(d)) return d;
    return null;
  };
  return rows.map((r) => ({
    domain: r.domain,
    mailboxes: Number(r.mailbox_count),
    aliases: Number(r.alias_count),
    explicit: Number(r.explicit) === 1,
    dkim: keyed.has(r.domain),
    dnsZone: zoneOf(r.domain),
    catchAll: caught.has(r.domain),
  }));
}

/**
 * New mail domains are deliberate: a mailbox or alias for a domain that is not a mail domain yet
 * is refused on `field` unless the call asks to create it.
 */
export async function requireKnownDomain(
  db: Db,
  domain: string,
  create: boolean | undefined,
  field: string,
): Promise<void> {
  if (create) return;
  const row = await db
    .selectFrom('mail_domains')
    .select('domain')
    .where('domain', '=', domain)
    .executeTakeFirst();
  if (!row) throw fieldError(field, mailMessages.domainUnknown(domain));
}

/** Which of `domains` are mail domains already. */
export async function knownDomains(db: Db, domains: string[]): Promise<Set<string>> {
  const known = new Set<string>();
  for (let i = 0; i < domains.length; i += 500) {
    const chunk = domains.slice(i, i + 500);
    if (!chunk.length) continue;
    const rows = await db.selectFrom('mail_domains').select('domain').where('domain', 'in', chunk).execute();
    for (const r of rows) known.add(r.domain);
  }
  return known;
}

/** Adds a domain explicitly; answers whether it is new. */
export async function addDomain(db: Db, domain: string): Promise<boolean> {
  return auditedTransaction(db, async (trx) => {
    const row = await trx
      .selectFrom('mail_domains')
      .select('explicit')
      .where('domain', '=', domain)
      .executeTakeFirst();
    if (row && Number(row.explicit) === 1) throw conflict(mailMessages.domainExists(domain));
    if (row) {
      await trx.updateTable('mail_domains').set({ explicit: 1 }).where('domain', '=', domain).execute();
      return false;
    }
    try {
      await trx
        .insertInto('mail_domains')
        .values({
          domain,
          explicit: 1,
          mailbox_count: 0,
          alias_count: 0,
          created_at: new Date().toISOString(),
        })
        .execute();
    } catch (err) {
      if (isUniqueViolation(err)) throw conflict(mailMessages.domainExists(domain));
      throw err;
    }
    await ensureSystemAliases(trx, [domain]);
    return true;
  });
}

/** Removes a domain nothing uses. */
export async function removeDomain(db: Db, domain: string): Promise<void> {
  await auditedTransaction(db, async (trx) => {
    await lockDomainRows(trx, [domain]);
    const row = await trx
      .selectFrom('mail_domains')
      .select(['mailbox_count', 'alias_count'])
      .where('domain', '=', domain)
      .executeTakeFirst();
    if (!row) throw notFound(mailMessages.domainNotFound(domain));
    // System aliases (postmaster@, abuse@) never keep a domain alive; they go with it.
    const system = await systemAliasCount(trx, domain);
    const own = Number(row.alias_count) - system;
    if (Number(row.mailbox_count) > 0 || own > 0) throw conflict(mailMessages.domainInUse(domain));
    await dropSystemAliases(trx, domain);
    // Deleted only while still unused (on PostgreSQL the row is held exclusively from the start,
    // so no create runs meanwhile; the condition stays as a guard).
    const res = await trx
      .deleteFrom('mail_domains')
      .where('domain', '=', domain)
      .where('mailbox_count', '<=', 0)
      .where('alias_count', '<=', system)
      .executeTakeFirst();
    if (Number(res.numDeletedRows) === 0) throw conflict(mailMessages.domainInUse(domain));
  });
}
