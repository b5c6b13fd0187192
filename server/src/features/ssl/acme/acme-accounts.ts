import * as acme from 'acme-client';
import type { AppDeps } from '../../../app-deps.ts';
import { SecretVault, VAULT_FILES } from '../../../security/secret-vault.ts';

export interface AcmeAccount {
  directoryUrl: string;
  accountKey: Buffer;
  accountUrl: string;
}

/**
 * The account for a CA directory: read from `acme_accounts`, or a new P-256 key stored (encrypted)
 * before the CA is asked, so two instances racing end up with one row and one key.
 */
export async function accountFor(deps: AppDeps, directoryUrl: string, email: string): Promise<AcmeAccount> {
  const db = deps.database.db;
  const box = SecretVault.open(deps.config.dataDir, VAULT_FILES.acme);
  const read = () =>
    db.selectFrom('acme_accounts').selectAll().where('directory_url', '=', directoryUrl).executeTakeFirst();
  let row = await read();
  if (!row) {
    const key = await acme.crypto.createPrivateEcdsaKey('P-256');
    const now = new Date().toISOString();
    await db
      .insertInto('acme_accounts')
      .values({
        directory_url: directoryUrl,
        contact_email: email,
        account_key: box.seal(key.toString()),
        account_url: '',
        created_at: now,
        updated_at: now,
      })
      .onConflict((oc) => oc.column('directory_url').doNothing())
      .execute();
    row = await read();
    if (!row) throw new Error(`The ACME account for ${directoryUrl} could not be stored`);
  }
  let accountKey: Buffer;
  try {
    accountKey = Buffer.from(box.open(row.account_key));
  } catch {
    // The data folder's key changed (restored elsewhere): start a new account for this CA.
    accountKey = await acme.crypto.createPrivateEcdsaKey('P-256');
    await db
      .updateTable('acme_accounts')
      .set({
        account_key: box.seal(accountKey.toString()),
        account_url: '',
        updated_at: new Date().toISOString(),
      })
      .where('id', '=', row.id)
      .execute();
    row = { ...row, account_url: '' };
  }
  return { directoryUrl, accountKey, accountUrl: row.account_url };
}

/** Registers the account with the CA (or finds it again by its key) and records its URL and contact. */
export async function registerAccount(
  deps: AppDeps,
  client: acme.Client,
  account: AcmeAccount,
  email: string,
): Promise<void> {
  const contact = email ? [`mailto:${email}`] : [];
  await client.createAccount({ termsOfServiceAgreed: true, contact });
  const url = client.getAccountUrl();
  const row = await deps.database.db
    .selectFrom('acme_accounts')
    .select(['account_url', 'contact_email'])
    .where('directory_url', '=', account.directoryUrl)
    .executeTakeFirst();
  if (row && row.contact_email !== email && account.accountUrl) await client.updateAccount({ contact });
  if (!row || row.account_url !== url || row.contact_email !== email) {
    await deps.database.db
      .updateTable('acme_accounts')
      .set({ account_url: url, contact_email: email, updated_at: new Date().toISOString() })
      .where('directory_url', '=', account.directoryUrl)
      .execute();
  }
}

/**
 * Forgets the account of a CA directory (its key and URL): the next order makes a new key and
 * registers it. Answers whether there was one. The CA side is left as it is (a reset CA or a
 * deactivated account has nothing more to say).
 */
export async function forgetAccount(deps: AppDeps, directoryUrl: string): Promise<boolean> {
  const res = await deps.database.db
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
export async function listAccounts(deps: AppDeps): Promise<AcmeAccountRow[]> {
  const rows = await deps.database.db
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
