import { type ChangeAudit, auditedTransaction } from '../../../apply/audit-scope.ts';
import { isCatchAll, mailMessages, splitDestinations } from '@mailroom/contract/mail';
import { fieldMessages } from '@mailroom/contract/messages';
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.ts';
import { conflict, fieldError, notFound } from '../../../http/errors.ts';
import { AliasGraph } from './alias-graph.rules.ts';
import {
  aliasKind,
  aliasKinds,
  deleteAliasRows,
  insertAlias,
  listAliases,
  updateAliasRow,
} from './alias.repository.ts';
import {
  addToCounters,
  countOutOfDomain,
  enterDomain,
  requireKnownDomain,
} from '../domains/domain.service.ts';
import {
  allMailboxes,
  holdDomain,
  lockAddresses,
  lockAliasGraph,
  lockDomainRows,
  NeedsGraphLock,
} from '../mail-write-locks.service.ts';
import { isHostedDomain, isUniqueViolation, splitAddress } from '../mail-address.rules.ts';
import { mailboxIdByEmail } from '../mailboxes/mailbox.repository.ts';
import { ensureSystemAliases, isRequiredAddress } from './system-aliases.service.ts';

export { listAliases };

type Db = Kysely<Database>;

export async function refuseLoop(db: Db, source: string, destination: string): Promise<void> {
  const dests = splitDestinations(destination);
  if (dests.includes(source)) throw fieldError('destination', mailMessages.aliasSelf);
  const chain = await new AliasGraph(db).findLoop(source, dests);
  if (chain) throw fieldError('destination', mailMessages.aliasLoop(chain));
}

/**
 * Takes an alias change's locks (see mail-write-locks.ts): the graph's when a destination is not a
 * mailbox (or `graph` says so), then the source's and destinations' addresses.
 */
async function lockAliasChange(trx: Db, source: string, dests: string[], graph: boolean): Promise<void> {
  if (graph) await lockAliasGraph(trx);
  await lockAddresses(trx, [source, ...dests]);
  // Checked again under the address locks: a destination removed meanwhile as a mailbox could
  // come back as an alias; then only the graph's lock keeps loops out.
  if (!graph && !(await allMailboxes(trx, dests))) throw new NeedsGraphLock();
}

/** Runs an alias change, once more with the graph's lock if the first try finds it needs it. */
async function withAliasLocks<T>(
  db: Db,
  source: string,
  destination: string | undefined,
  change: (trx: Db) => Promise<T>,
  audit?: (value: T) => ChangeAudit,
): Promise<T> {
  const dests = destination === undefined ? [] : splitDestinations(destination);
  let graph = destination !== undefined && !(await allMailboxes(db, dests));
  for (;;) {
    try {
      return await auditedTransaction(
        db,
        async (trx) => {
          await lockAliasChange(trx, source, dests, graph);
          return change(trx);
        },
        audit,
      );
    } catch (err) {
      if (!(err instanceof NeedsGraphLock) || graph) throw err;
      graph = true;
    }
  }
}

/** Creates an alias; answers whether its domain is new. */
export async function createAlias(
  db: Db,
  input: { source: string; destination: string; createDomain?: boolean | undefined },
): Promise<{ newDomain: boolean }> {
  const { source, destination } = input;
  // A catch-all (`@domain`) splits into an empty local part and its domain.
  const { domain } = splitAddress(source);
  if (!isHostedDomain(domain)) throw fieldError('source', fieldMessages.email);
  await requireKnownDomain(db, domain, input.createDomain, 'source');
  if (splitDestinations(destination).includes(source))
    throw fieldError('destination', mailMessages.aliasSelf);
  try {
    return await withAliasLocks(db, source, destination, async (trx) => {
      // Checked again here: the domain may have been removed since (it would come back silently).
      const newDomain = await enterDomain(trx, domain, input.createDomain, 'source');
      const exists = await aliasKind(trx, source);
      if (exists && Number(exists.system) === 1) {
        // The administrator defines a required address: theirs replaces Mailroom's (one alias
        // either way, so the count stays).
        await refuseLoop(trx, source, destination);
        await updateAliasRow(trx, source, {
          destination,
          status: 'active',
          system: 0,
          updated_at: new Date().toISOString(),
        });
        return { newDomain: false };
      }
      if (exists && isCatchAll(source)) throw conflict(mailMessages.catchAllExists(domain));
      if (exists) throw conflict(mailMessages.aliasExists(source));
      if ((await mailboxIdByEmail(trx, source)) !== null) throw conflict(mailMessages.aliasIsMailbox(source));
      await refuseLoop(trx, source, destination);
      const now = new Date().toISOString();
      await insertAlias(trx, {
        source,
        domain,
        destination,
        status: 'active',
        created_at: now,
        updated_at: now,
      });
      if (newDomain) await ensureSystemAliases(trx, [domain]);
      await addToCounters(trx, domain, { aliases: 1 });
      return { newDomain };
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw conflict(mailMessages.aliasExists(source));
    throw err;
  }
}

/** Removes an alias; answers whether its domain went with it (its DNS facts then change). */
export async function removeAlias(db: Db, source: string): Promise<{ domainGone: boolean }> {
  return auditedTransaction(db, async (trx) => {
    const row = await aliasKind(trx, source);
    if (!row) throw notFound(mailMessages.aliasNotFound(source));
    if (Number(row.system) === 1) throw conflict(mailMessages.aliasRequired(source));
    await holdDomain(trx, row.domain);
    await deleteAliasRows(trx, [source]);
    // An administrator's postmaster@/abuse@ gone: the system alias takes its place again (before
    // the counters: see mail-write-locks.ts; it goes with the domain if the domain goes).
    if (isRequiredAddress(source)) await ensureSystemAliases(trx, [row.domain]);
    const domainGone = await countOutOfDomain(trx, row.domain, { aliases: 1 });
    return { domainGone };
  });
}

/**
 * Deletes several aliases in one transaction with one audit line: every source must be an alias
 * the administrator may delete, or nothing changes (the unknown or required ones are named on
 * `sources`). Answers the domains that went with them.
 */
export async function removeAliases(
  db: Db,
  list: string[],
): Promise<{ removed: number; domainsGone: string[] }> {
  const sources = [...new Set(list)];
  return auditedTransaction(
    db,
    async (trx) => {
      const rows = await aliasKinds(trx, sources);
      if (rows.length !== sources.length) {
        const found = new Set(rows.map((r) => r.source));
        const missing = sources.filter((s) => !found.has(s));
        throw fieldError(
          'sources',
          missing.length === 1
            ? mailMessages.aliasNotFound(missing[0]!)
            : `These aliases were not found: ${missing.slice(0, 10).join(', ')}${missing.length > 10 ? ', …' : ''}`,
        );
      }
      const required = rows.find((r) => Number(r.system) === 1);
      if (required) throw fieldError('sources', mailMessages.aliasRequired(required.source));
      const perDomain = new Map<string, number>();
      for (const r of rows) perDomain.set(r.domain, (perDomain.get(r.domain) ?? 0) + 1);
      // Domain rows first, exclusively and in one order (see mail-write-locks.ts), then the aliases.
      const domains = [...perDomain.keys()].sort();
      await lockDomainRows(trx, domains);
      await deleteAliasRows(trx, sources);
      const domainsGone: string[] = [];
      for (const d of domains)
        if (await countOutOfDomain(trx, d, { aliases: perDomain.get(d)! })) domainsGone.push(d);
      // An administrator's postmaster@/abuse@ gone: the system alias takes its place again.
      const refill = [
        ...new Set(rows.filter((r) => isRequiredAddress(r.source)).map((r) => r.domain)),
      ].filter((d) => !domainsGone.includes(d));
      if (refill.length) await ensureSystemAliases(trx, refill);
      return { removed: rows.length, domainsGone };
    },
    (v) => ({ target: `${v.removed} aliases`, details: { sources } }),
  );
}

export async function updateAlias(
  db: Db,
  source: string,
  input: { destination?: string | undefined; status?: 'active' | 'disabled' | undefined },
): Promise<void> {
  await withAliasLocks(db, source, input.destination, async (trx) => {
    const row = await aliasKind(trx, source);
    if (!row) throw notFound(mailMessages.aliasNotFound(source));
    if (Number(row.system) === 1 && input.status === 'disabled')
      throw conflict(mailMessages.aliasRequired(source));
    if (input.destination !== undefined) await refuseLoop(trx, source, input.destination);
    await updateAliasRow(trx, source, {
      ...(input.destination !== undefined ? { destination: input.destination } : {}),
      ...(input.status !== undefined ? { status: input.status } : {}),
      // A new destination makes a system alias the administrator's own.
      ...(input.destination !== undefined ? { system: 0 } : {}),
      updated_at: new Date().toISOString(),
    });
  });
}
