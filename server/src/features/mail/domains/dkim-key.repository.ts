import type { Insertable, Kysely } from 'kysely';
import type { DkimKeyTable } from '../../../db/mail.tables.ts';
import type { Database } from '../../../db/schema.ts';
import type { DkimKeyRow } from './dkim.renderer.ts';

/** The SQL of `dkim_keys` (public halves; the private ones live only in the signer's key files). */

type Db = Kysely<Database>;

/** The mail domains without a key of this selector. */
export async function domainsWithoutKey(db: Db, selector: string): Promise<string[]> {
  const rows = await db
    .selectFrom('mail_domains as d')
    .leftJoin('dkim_keys as k', (j) => j.onRef('k.domain', '=', 'd.domain').on('k.selector', '=', selector))
    .select('d.domain')
    .where('k.id', 'is', null)
    .execute();
  return rows.map((r) => r.domain);
}

/** Inserts a key unless the domain has one of that selector; answers whether it did. */
export async function insertKeyIfMissing(db: Db, row: Insertable<DkimKeyTable>): Promise<boolean> {
  const res = await db
    .insertInto('dkim_keys')
    .values(row)
    .onConflict((oc) => oc.columns(['domain', 'selector']).doNothing())
    .executeTakeFirst();
  return Number(res.numInsertedOrUpdatedRows ?? 0) > 0;
}

/** Keys whose private half is still in the row (before 0.8). */
export async function keysWithPrivateHalf(db: Db) {
  return db
    .selectFrom('dkim_keys')
    .select(['id', 'domain', 'selector', 'private_key'])
    .where('private_key', '<>', '')
    .execute();
}

export async function blankPrivateHalf(db: Db, id: number): Promise<void> {
  await db.updateTable('dkim_keys').set({ private_key: '' }).where('id', '=', id).execute();
}

export async function replacePublicKey(
  db: Db,
  key: { domain: string; selector: string },
  publicKey: string,
  at: string,
): Promise<void> {
  await db
    .updateTable('dkim_keys')
    .set({ public_key: publicKey, created_at: at })
    .where('domain', '=', key.domain)
    .where('selector', '=', key.selector)
    .execute();
}

/** Public keys of the domains that exist now. */
export async function currentDkimKeys(db: Db): Promise<(DkimKeyRow & { created_at: string })[]> {
  return db
    .selectFrom('dkim_keys as k')
    .innerJoin('mail_domains as d', 'd.domain', 'k.domain')
    .select(['k.domain', 'k.selector', 'k.public_key', 'k.created_at'])
    .orderBy('k.domain')
    .execute();
}

/** The domains with a key. */
export async function keyedDomains(db: Db): Promise<string[]> {
  return (await db.selectFrom('dkim_keys').select('domain').distinct().execute()).map((k) => k.domain);
}
