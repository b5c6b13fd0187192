import { SYSTEM_ALIAS_LOCAL_PARTS } from '@mailroom/contract/mail';
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.ts';
import { firstConsoleAdminEmail } from '../../auth/auth.public.ts';
import { dropSystemAliases, existingSources, insertAliases, systemAliasCount } from './alias.repository.ts';
import { addToDomainCounters, existingDomains } from '../domains/mail-domain.repository.ts';
import { existingMailboxes } from '../mailboxes/mailbox.repository.ts';

type Db = Kysely<Database>;

/**
 * Required addresses: every hosted domain answers postmaster@ and abuse@ (RFC 2142; DMARC
 * reports go to postmaster@). Where neither an alias nor a mailbox holds one, Mailroom keeps a
 * system alias to the first administrator. The administrator replaces it by defining the alias
 * (or a mailbox) at that address; removing theirs brings the system alias back.
 */

/** The first administrator's address: where required addresses go by default. */
export async function firstAdminEmail(db: Db): Promise<string | null> {
  return firstConsoleAdminEmail(db);
}

export const isRequiredAddress = (source: string) =>
  (SYSTEM_ALIAS_LOCAL_PARTS as readonly string[]).includes(source.slice(0, source.lastIndexOf('@')));

/**
 * Adds the missing system aliases of these domains (counted into each domain's alias_count);
 * answers how many were added. Without an administrator there is nobody to send them to.
 */
export async function ensureSystemAliases(db: Db, domains: string[]): Promise<number> {
  if (!domains.length) return 0;
  const admin = await firstAdminEmail(db);
  if (!admin) return 0;
  let added = 0;
  const now = new Date().toISOString();
  const hosted = await existingDomains(db, domains);
  for (const domain of domains) {
    if (!hosted.has(domain)) continue;
    const wanted = SYSTEM_ALIAS_LOCAL_PARTS.map((l) => `${l}@${domain}`).filter((a) => a !== admin);
    const [aliases, mailboxes] = await Promise.all([
      existingSources(db, wanted),
      existingMailboxes(db, wanted),
    ]);
    const taken = new Set([...aliases, ...mailboxes]);
    const missing = wanted.filter((a) => !taken.has(a));
    if (!missing.length) continue;
    await insertAliases(
      db,
      missing.map((source) => ({
        source,
        domain,
        destination: admin,
        status: 'active',
        system: 1,
        created_at: now,
        updated_at: now,
      })),
    );
    await addToDomainCounters(db, domain, { aliases: missing.length });
    added += missing.length;
  }
  return added;
}

/** How many of a domain's system aliases there are (they never keep a domain alive), and their removal. */
export { dropSystemAliases, systemAliasCount };
