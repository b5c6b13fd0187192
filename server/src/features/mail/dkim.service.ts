import { generateKeyPair } from 'node:crypto';
import os from 'node:os';
import { promisify } from 'node:util';
import type { DkimRecord } from '@mailroom/contract/mail';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { Host } from '../../host/host.ts';
import {
  DKIM_SELECTOR,
  dkimRecordName,
  dkimTxt,
  type DkimKeyRow,
  renderDkimTables,
} from './dkim.renderer.ts';
import { MAIL_PATHS } from './mail-paths.ts';

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
 * Generates a 2048-bit key for every domain that has none (several at a time, one per core);
 * answers the domains that got one.
 */
export async function ensureDkimKeys(db: Db): Promise<string[]> {
  const missing = await db
    .selectFrom('mail_domains as d')
    .leftJoin('dkim_keys as k', (j) =>
      j.onRef('k.domain', '=', 'd.domain').on('k.selector', '=', DKIM_SELECTOR),
    )
    .select('d.domain')
    .where('k.id', 'is', null)
    .execute();
  const queue = missing.map((r) => r.domain);
  const made: string[] = [];
  const worker = async () => {
    for (let d = queue.shift(); d !== undefined; d = queue.shift()) {
      const pair = await newKeyPair();
      const res = await db
        .insertInto('dkim_keys')
        .values({
          domain: d,
          selector: DKIM_SELECTOR,
          private_key: pair.privateKey,
          public_key: pair.publicKey,
          created_at: new Date().toISOString(),
        })
        .onConflict((oc) => oc.columns(['domain', 'selector']).doNothing())
        .executeTakeFirst();
      if (Number(res.numInsertedOrUpdatedRows ?? 0) > 0) made.push(d);
    }
  };
  await Promise.all(Array.from({ length: Math.min(os.availableParallelism(), queue.length) }, worker));
  return made;
}

/** Keys of the domains that exist now. */
export async function currentDkimKeys(db: Db): Promise<(DkimKeyRow & { created_at: string })[]> {
  return db
    .selectFrom('dkim_keys as k')
    .innerJoin('mail_domains as d', 'd.domain', 'k.domain')
    .select(['k.domain', 'k.selector', 'k.private_key', 'k.public_key', 'k.created_at'])
    .orderBy('k.domain')
    .execute();
}

export async function listDkimRecords(db: Db): Promise<DkimRecord[]> {
  return (await currentDkimKeys(db)).map((k) => ({
    domain: k.domain,
    selector: k.selector,
    name: dkimRecordName(k.domain, k.selector),
    txt: dkimTxt(k.public_key),
    createdAt: k.created_at,
  }));
}

/** Private key files (0600) and OpenDKIM's KeyTable/SigningTable. */
export function dkimFiles(
  host: Host,
  keys: DkimKeyRow[],
): { path: string; content: string; mode?: number }[] {
  const keyPath = (k: DkimKeyRow) => MAIL_PATHS.dkimKey(k.domain, k.selector);
  const tables = renderDkimTables(keys, (k) => host.path(keyPath(k)));
  return [
    ...keys.map((k) => ({ path: keyPath(k), content: k.private_key, mode: 0o600 })),
    { path: MAIL_PATHS.dkimKeyTable, content: tables.keyTable },
    { path: MAIL_PATHS.dkimSigningTable, content: tables.signingTable },
  ];
}
