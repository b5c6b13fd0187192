import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';

export interface ThrottlePolicy {
  windowMs: number;
  maxPerAccount: number;
  maxPerIp: number;
}

export const DEFAULT_THROTTLE: ThrottlePolicy = { windowMs: 15 * 60_000, maxPerAccount: 5, maxPerIp: 20 };

const buckets = (email: string, ip: string | null) => [`account:${email}`, ...(ip ? [`ip:${ip}`] : [])];

/**
 * Failed sign-ins live in the database, so the limit holds across several Mailroom instances.
 * Answers the seconds to wait, or 0 when another attempt is allowed.
 */
export async function retryAfterSeconds(
  db: Kysely<Database>,
  policy: ThrottlePolicy,
  email: string,
  ip: string | null,
  now = Date.now(),
): Promise<number> {
  const since = now - policy.windowMs;
  let wait = 0;
  for (const bucket of buckets(email, ip)) {
    const limit = bucket.startsWith('ip:') ? policy.maxPerIp : policy.maxPerAccount;
    const rows = await db
      .selectFrom('login_attempts')
      .select('at')
      .where('bucket', '=', bucket)
      .where('at', '>', since)
      .orderBy('at', 'desc')
      .limit(limit)
      .execute();
    if (rows.length >= limit) {
      const oldestCounted = rows[rows.length - 1]!.at;
      wait = Math.max(wait, Math.ceil((oldestCounted + policy.windowMs - now) / 1000));
    }
  }
  return wait;
}

export async function recordFailure(
  db: Kysely<Database>,
  email: string,
  ip: string | null,
  now = Date.now(),
): Promise<void> {
  await db
    .insertInto('login_attempts')
    .values(buckets(email, ip).map((bucket) => ({ bucket, at: now })))
    .execute();
}

/** A good sign-in clears the account's failures (not the address's). Old rows are pruned. */
export async function recordSuccess(
  db: Kysely<Database>,
  policy: ThrottlePolicy,
  email: string,
  now = Date.now(),
): Promise<void> {
  await db.deleteFrom('login_attempts').where('bucket', '=', `account:${email}`).execute();
  await db
    .deleteFrom('login_attempts')
    .where('at', '<', now - policy.windowMs)
    .execute();
}
