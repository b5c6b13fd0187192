import type { Kysely, Selectable } from 'kysely';
import type { AcmeAccountTable } from '../../../db/ssl-acme.tables.ts';
import type { Database } from '../../../db/schema.ts';

/** The SQL of `acme_accounts`: one account per CA directory URL, its key sealed. */

type Db = Kysely<Database>;

export type AcmeAccountRecord = Selectable<AcmeAccountTable>;

export async function findAccount(db: Db, directoryUrl: string): Promise<AcmeAccountRecord | undefined> {
  return db
    .selectFrom('acme_accounts')
    .selectAll()
    .where('directory_url', '=', directoryUrl)
    .executeTakeFirst();
}

/** Stores a new account (not yet registered); an account stored meanwhile for the URL is kept. */
export async function insertAccountIfMissing(
  db: Db,
  a: { directoryUrl: string; email: string; sealedKey: string },
): Promise<void> {
  const now = new Date().toISOString();
  await db
    .insertInto('acme_accounts')
    .values({
      directory_url: a.directoryUrl,
      contact_email: a.email,
      account_key: a.sealedKey,
      account_url: '',
      created_at: now,
      updated_at: now,
    })
    .onConflict((oc) => oc.column('directory_url').doNothing())
    .execute();
}

/** A new key for the account: the CA knows it under no URL yet. */
export async function replaceAccountKey(db: Db, id: number, sealedKey: string): Promise<void> {
  await db
    .updateTable('acme_accounts')
    .set({ account_key: sealedKey, account_url: '', updated_at: new Date().toISOString() })
    .where('id', '=', id)
    .execute();
}

/** What the CA was last told: the account's URL and contact. */
export async function accountRegistration(db: Db, directoryUrl: string) {
  return db
    .selectFrom('acme_accounts')
    .select(['account_url', 'contact_email'])
    .where('directory_url', '=', directoryUrl)
    .executeTakeFirst();
}

export async function storeRegistration(
  db: Db,
  directoryUrl: string,
  accountUrl: string,
  email: string,
): Promise<void> {
  await db
    .updateTable('acme_accounts')
    .set({ account_url: accountUrl, contact_email: email, updated_at: new Date().toISOString() })
    .where('directory_url', '=', directoryUrl)
    .execute();
}

/** Answers whether there was an account for the URL. */
export async function deleteAccount(db: Db, directoryUrl: string): Promise<boolean> {
  const res = await db
    .deleteFrom('acme_accounts')
    .where('directory_url', '=', directoryUrl)
    .executeTakeFirst();
  return Number(res.numDeletedRows) > 0;
}

export interface AcmeAccountRow {
  directoryUrl: string;
  contactEmail: string;
  /** The CA's URL of the account; empty until the CA registered it. */
  accountUrl: string;
  createdAt: string;
  updatedAt: string;
}

/** The stored ACME accounts, one per CA directory (no keys). */
export async function listAccountRows(db: Db): Promise<AcmeAccountRow[]> {
  const rows = await db
    .selectFrom('acme_accounts')
    .select(['directory_url', 'contact_email', 'account_url', 'created_at', 'updated_at'])
    .orderBy('directory_url')
    .execute();
  return rows.map((r) => ({
    directoryUrl: r.directory_url,
    contactEmail: r.contact_email,
    accountUrl: r.account_url,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  }));
}
