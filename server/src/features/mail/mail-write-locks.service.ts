export { lockAddresses, lockAliasGraph } from './address-lock.repository.ts';
export { holdDomain, lockDomainRows } from './domains/mail-domain.repository.ts';
export { allMailboxes } from './mailboxes/mailbox.repository.ts';

/*
 * The locks of mail writes on PostgreSQL (SQLite runs one writer at a time and needs none).
 *
 * Every write takes its locks in one order, so none waits on another in a circle:
 *   1. the alias graph's lock (only an alias change that may close a loop, and imports);
 *   2. its addresses (transaction advisory locks, in sorted order): the mailbox/alias clash of one
 *      address is checked by one transaction at a time;
 *   3. its domain rows: KEY SHARE for a single change (the row cannot go meanwhile, yet other
 *      writes of the same domain run side by side), FOR UPDATE for imports, bulk removals and a
 *      domain's removal (which take no address locks);
 *   4. the lists (the list_versions row each table's trigger raises);
 *   5. the domain counters, last, so a domain row's write lock is held only from there to commit.
 * Before this order, every write of a domain took its row's write lock first and held it for the
 * whole transaction: the 50-client load, all writing one domain, ran its writes one at a time.
 */

/** The transaction must start again with the graph lock (a destination stopped being a mailbox). */
export class NeedsGraphLock extends Error {}
