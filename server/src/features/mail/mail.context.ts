import type { Kysely } from 'kysely';
import type { AppDeps } from '../../app-deps.ts';
import type { DatabaseHandle } from '../../db/database.ts';
import type { Database } from '../../db/schema.ts';
import type { Host } from '../../host/host.ts';
import { type HashPriority, sharedHashPool } from '../../lib/hash-pool.ts';

export interface PasswordHasher {
  /** `background`: a bulk run's hashes wait behind the ones someone is waiting for. */
  hash(password: string, priority?: HashPriority): Promise<string>;
}

/** What the mail services work with. */
export interface MailCtx {
  db: Kysely<Database>;
  database: DatabaseHandle;
  host: Host;
  hasher: PasswordHasher;
}

export function mailContext(deps: AppDeps, hasher: PasswordHasher = sharedHashPool()): MailCtx {
  return { db: deps.database.db, database: deps.database, host: deps.host, hasher };
}
