import { SYSTEM_ALIAS_LOCAL_PARTS } from '@mailroom/contract/mail';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';

type Db = Kysely<Database>;

/**
 * Required addresses: every hosted domain answers postmaster@ and abuse@ (RFC 2142; DMARC
 * reports go to postmaster@). Where neither an alias nor a mailbox holds one, Mailroom keeps a
 * system alias to the first administrator. The administrator replaces it by defining the alias
 * (or a mailbox) at that address; removing theirs brings the system alias back.
 */

/** The first administrator's address: where required addresses go by default. */
export async function firstAdminEmail(db: Db): Promise<string | null> {
  const row = await db
    .selectFrom('admins')
    .select('email')
    .where('mailbox_id', 'is', null)
    .orderBy('id')
    .limit(1)
    .executeTakeFirst();
  return row?.email ?? null;
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
  const hosted = new Set(
    (await db.selectFrom('mail_domains').select('domain').where('domain', 'in', domains).execute()).map(
      (r) => r.domain,
    ),
  );
  for (const domain of domains) {
    if (!hosted.has(domain)) continue;
    const wanted = SYSTEM_ALIAS_LOCAL_PARTS.map((l) => `${l}@${domain}`).filter((a) => a !== admin);
    const [aliases, mailboxes] = await Promise.all([
      db.selectFrom('mail_aliases').select('source').where('source', 'in', wanted).execute(),
      db.selectFrom('mailboxes').select('email').where('email', 'in', wanted).execute(),
    ]);
    const taken = new Set([...aliases.map((r) => r.source), ...mailboxes.map((r) => r.email)]);
    const missing = wanted.filter((a) => !taken.has(a));
    if (!missing.length) continue;
    await db
      .insertInto('mail_aliases')
      .values(
        missing.map((source) => ({
          source,
          domain,
          destination: admin,
          status: 'active',
          system: 1,
          created_at: now,
          updated_at: now,
        })),
      )
      .execute();
    await db
      .updateTable('mail_domains')
      .set((eb) => ({ alias_count: eb('alias_count', '+', missing.length) }))
      .where('domain', '=', domain)
      .execute();
    added += missing.length;
  }
  return added;
}

/** How many of a domain's aliases are system aliases (they never keep a domain alive). */
export async function systemAliasCount(db: Db, domain: string): Promise<number> {
  const row = await db
    .selectFrom('mail_aliases')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('domain', '=', domain)
    .where('system', '=', 1)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** Removes a domain's system aliases (the domain is going away). */
export async function dropSystemAliases(db: Db, domain: string): Promise<void> {
  await db.deleteFrom('mail_aliases').where('domain', '=', domain).where('system', '=', 1).execute();
}
