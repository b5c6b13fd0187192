import { generateKeyPair } from 'node:crypto';
import os from 'node:os';
import { promisify } from 'node:util';
import type { DkimRecord } from '@mailroom/contract/mail';
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.ts';
import type { Host } from '../../../host/host.ts';
import {
  blankPrivateHalf,
  currentDkimKeys,
  domainsWithoutKey,
  insertKeyIfMissing,
  keysWithPrivateHalf,
  replacePublicKey,
} from './dkim-key.repository.ts';
import { dkimKeyFileExists, writeDkimKeyFile } from './dkim-key-files.service.ts';
import { DKIM_SELECTOR, dkimRecordName, dkimTxt, type DkimKeyRow } from './dkim.renderer.ts';

type Db = Kysely<Database>;
const generate = promisify(generateKeyPair);

async function newKeyPair(): Promise<{ privateKey: string; publicKey: string }> {
  return generate('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  });
}

/**
 * Runs `work` for each item, several at a time (one per core): 2048-bit keys take a while each.
 */
async function inParallel<T>(items: T[], work: (item: T) => Promise<void>): Promise<void> {
  const queue = [...items];
  const worker = async () => {
    for (let x = queue.shift(); x !== undefined; x = queue.shift()) await work(x);
  };
  await Promise.all(Array.from({ length: Math.min(os.availableParallelism(), queue.length) }, worker));
}

/**
 * Makes sure every domain has a key the signer can use. The private key is written only to the
 * signer's key file (dkim-key-files.ts), the database keeps the public key for DNS:
 * - a domain without a key gets a new 2048-bit pair;
 * - a key still stored in the database (before 0.8) is moved to its file and blanked in the row;
 * - a key whose file is gone (a new host root, say) is lost for good: a new pair replaces it and
 *   DNS publishes the new public key.
 * Answers the domains whose public key changed (DNS republishes their zones).
 */
export async function ensureDkimKeys(db: Db, host: Host): Promise<string[]> {
  const missing = await domainsWithoutKey(db, DKIM_SELECTOR);
  const changed: string[] = [];
  await inParallel(missing, async (domain) => {
    const pair = await newKeyPair();
    // The file first: a row never promises a key the signer does not have.
    await writeDkimKeyFile(host, domain, DKIM_SELECTOR, pair.privateKey);
    const inserted = await insertKeyIfMissing(db, {
      domain,
      selector: DKIM_SELECTOR,
      private_key: '',
      public_key: pair.publicKey,
      created_at: new Date().toISOString(),
    });
    if (inserted) changed.push(domain);
  });

  const legacy = await keysWithPrivateHalf(db);
  for (const k of legacy) {
    await writeDkimKeyFile(host, k.domain, k.selector, k.private_key);
    await blankPrivateHalf(db, k.id);
  }

  const lost: DkimKeyRow[] = [];
  for (const k of await currentDkimKeys(db)) {
    if ((await dkimKeyFileExists(host, k.domain, k.selector)) === false) lost.push(k);
  }
  await inParallel(lost, async (k) => {
    const pair = await newKeyPair();
    await writeDkimKeyFile(host, k.domain, k.selector, pair.privateKey);
    await replacePublicKey(db, k, pair.publicKey, new Date().toISOString());
    changed.push(k.domain);
  });
  return changed;
}

/** Public keys of the domains that exist now (the private halves are only in the signer's files). */
export { currentDkimKeys };

export async function listDkimRecords(db: Db): Promise<DkimRecord[]> {
  return (await currentDkimKeys(db)).map((k) => ({
    domain: k.domain,
    selector: k.selector,
    name: dkimRecordName(k.domain, k.selector),
    txt: dkimTxt(k.public_key),
    createdAt: k.created_at,
  }));
}
