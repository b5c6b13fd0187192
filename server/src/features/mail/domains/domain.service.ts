import { auditedTransaction } from '../../../apply/audit-scope.ts';
import type { MailDomain } from '@mailroom/contract/mail';
import { mailMessages } from '@mailroom/contract/mail';
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.ts';
import { hostedZoneNames } from '../../dns/dns.public.ts';
import { keyedDomains } from './dkim-key.repository.ts';
import {
  addToDomainCounters,
  allDomains,
  counterSums,
  deleteDomainRow,
  deleteUnusedDomain,
  domainCounters,
  domainExplicit,
  domainsWithCatchAll,
  existingDomains,
  insertDomain,
  insertDomainIfMissing,
  markExplicit,
  takeDomainRowIfFree,
  upsertCounters,
} from './mail-domain.repository.ts';
import { conflict, fieldError, notFound } from '../../../http/errors.ts';
import { isUniqueViolation } from '../mail-address.rules.ts';
import { holdDomain, lockDomainRows } from '../mail-write-locks.service.ts';
import {
  dropSystemAliases,
  ensureSystemAliases,
  systemAliasCount,
} from '../aliases/system-aliases.service.ts';

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
    const existing = await existingDomains(db, chunk);
    for (const d of chunk) if (!existing.has(d)) created.push(d);
    await upsertCounters(
      db,
      chunk.map((domain) => ({ domain, ...counts.get(domain)! })),
      now,
    );
  }
  // A new domain answers postmaster@ and abuse@ from the start.
  await ensureSystemAliases(db, created);
  return created;
}

/** How many mailboxes and aliases there are, from the domains' counters (no table is counted). */
export async function tableSizes(db: Db): Promise<{ mailboxes: number; aliases: number }> {
  return counterSums(db);
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
  // Another create made it first (its insert committed while ours waited): hold that row.
  if (!(await insertDomainIfMissing(db, domain, new Date().toISOString()))) {
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
  await addToDomainCounters(db, domain, delta);
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
  const row = await domainCounters(db, domain);
  if (!row || Number(row.explicit) === 1 || Number(row.mailbox_count) > 0) return false;
  if (Number(row.alias_count) > (await systemAliasCount(db, domain))) return false;
  // Another write holding the row (a create about to count itself in) keeps the domain: taking the
  // row exclusively would wait for it while it waits for the list this removal holds.
  if (!(await takeDomainRowIfFree(db, domain))) return false;
  await dropSystemAliases(db, domain);
  await deleteDomainRow(db, domain);
  return true;
}

/**
 * Mail domains with their counts, DKIM key state, catch-all, and the DNS zone hosted here that
 * holds their records (the domain itself or the nearest parent zone), if any.
 */
export async function listDomains(db: Db): Promise<MailDomain[]> {
  const [rows, keys, zones, catchAlls] = await Promise.all([
    allDomains(db),
    keyedDomains(db),
    hostedZoneNames(db),
    domainsWithCatchAll(db),
  ]);
  const keyed = new Set(keys);
  const hosted = new Set(zones);
  const caught = new Set(catchAlls);
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
  if (!(await existingDomains(db, [domain])).has(domain))
    throw fieldError(field, mailMessages.domainUnknown(domain));
}

/** Which of `domains` are mail domains already. */
export async function knownDomains(db: Db, domains: string[]): Promise<Set<string>> {
  const known = new Set<string>();
  for (let i = 0; i < domains.length; i += 500) {
    const chunk = domains.slice(i, i + 500);
    if (!chunk.length) continue;
    for (const d of await existingDomains(db, chunk)) known.add(d);
  }
  return known;
}

/** Adds a domain explicitly; answers whether it is new. */
export async function addDomain(db: Db, domain: string): Promise<boolean> {
  return auditedTransaction(db, async (trx) => {
    const row = await domainExplicit(trx, domain);
    if (row && Number(row.explicit) === 1) throw conflict(mailMessages.domainExists(domain));
    if (row) {
      await markExplicit(trx, domain);
      return false;
    }
    try {
      await insertDomain(trx, {
        domain,
        explicit: 1,
        mailbox_count: 0,
        alias_count: 0,
        created_at: new Date().toISOString(),
      });
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
    const row = await domainCounters(trx, domain);
    if (!row) throw notFound(mailMessages.domainNotFound(domain));
    // System aliases (postmaster@, abuse@) never keep a domain alive; they go with it.
    const system = await systemAliasCount(trx, domain);
    const own = Number(row.alias_count) - system;
    if (Number(row.mailbox_count) > 0 || own > 0) throw conflict(mailMessages.domainInUse(domain));
    await dropSystemAliases(trx, domain);
    // Deleted only while still unused (on PostgreSQL the row is held exclusively from the start,
    // so no create runs meanwhile; the condition stays as a guard).
    if (!(await deleteUnusedDomain(trx, domain, system))) throw conflict(mailMessages.domainInUse(domain));
  });
}
