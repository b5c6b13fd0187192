import * as acme from 'acme-client';
import type { AppDeps } from '../../../app-deps.ts';
import { SecretVault, VAULT_FILES } from '../../../security/secret-vault.ts';
import {
  type AcmeAccountRow,
  accountRegistration,
  deleteAccount,
  findAccount,
  insertAccountIfMissing,
  listAccountRows,
  replaceAccountKey,
  storeRegistration,
} from './acme-account.repository.ts';

export type { AcmeAccountRow };

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
  const read = () => findAccount(db, directoryUrl);
  let row = await read();
  if (!row) {
    const key = await acme.crypto.createPrivateEcdsaKey('P-256');
    await insertAccountIfMissing(db, { directoryUrl, email, sealedKey: box.seal(key.toString()) });
    row = await read();
    if (!row) throw new Error(`The ACME account for ${directoryUrl} could not be stored`);
  }
  let accountKey: Buffer;
  try {
    accountKey = Buffer.from(box.open(row.account_key));
  } catch {
    // The data folder's key changed (restored elsewhere): start a new account for this CA.
    accountKey = await acme.crypto.createPrivateEcdsaKey('P-256');
    await replaceAccountKey(db, row.id, box.seal(accountKey.toString()));
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
  const row = await accountRegistration(deps.database.db, account.directoryUrl);
  if (row && row.contact_email !== email && account.accountUrl) await client.updateAccount({ contact });
  if (!row || row.account_url !== url || row.contact_email !== email) {
    await storeRegistration(deps.database.db, account.directoryUrl, url, email);
  }
}

/**
 * Forgets the account of a CA directory (its key and URL): the next order makes a new key and
 * registers it. Answers whether there was one. The CA side is left as it is (a reset CA or a
 * deactivated account has nothing more to say).
 */
export async function forgetAccount(deps: AppDeps, directoryUrl: string): Promise<boolean> {
  return deleteAccount(deps.database.db, directoryUrl);
}

/** The stored ACME accounts, one per CA directory (no keys). */
export async function listAccounts(deps: AppDeps): Promise<AcmeAccountRow[]> {
  return listAccountRows(deps.database.db);
}
