import { type Kysely, sql } from 'kysely';
import type { Database } from './schema.ts';

/**
 * Runs `fn` under a savepoint of the transaction `trx`: released when it succeeds, rolled back to
 * (and released) when it throws, the error passed on. The rest of the transaction stands either way.
 * `name` is a fixed identifier of the caller (never user input).
 */
export async function inSavepoint<T>(trx: Kysely<Database>, name: string, fn: () => Promise<T>): Promise<T> {
  const point = sql.raw(name);
  await sql`savepoint ${point}`.execute(trx);
  let value: T;
  try {
    value = await fn();
  } catch (err) {
    await sql`rollback to savepoint ${point}`.execute(trx);
    await sql`release savepoint ${point}`.execute(trx);
    throw err;
  }
  await sql`release savepoint ${point}`.execute(trx);
  return value;
}
