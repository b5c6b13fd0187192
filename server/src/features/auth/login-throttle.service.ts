import type { Kysely } from 'kysely';
import { isPostgres } from '../../db/database.ts';
import type { Database } from '../../db/schema.ts';
import {
  bucketState,
  deleteAttempts,
  insertAttempts,
  insertAttemptsIfRoom,
  lockBuckets,
} from './login-attempt.repository.ts';

/**
 * Sign-in throttling, judged per account-and-address pair so that a stranger cannot lock the
 * administrator out: a pair gets `freePerPair` failures per window, then each further attempt
 * waits `baseDelayMs`, doubling per failure (capped at the window). One account from all
 * addresses together has a much larger ceiling, and one address across all accounts its own.
 */
export interface ThrottlePolicy {
  windowMs: number;
  /** Failures one address may make for one account before delays start. */
  freePerPair: number;
  /** Wait after the first failure beyond `freePerPair`; doubles with each further one. */
  baseDelayMs: number;
  /** Failures for one account from every address together. */
  maxPerAccount: number;
  /** Failures from one address across every account. */
  maxPerIp: number;
}

export const DEFAULT_THROTTLE: ThrottlePolicy = {
  windowMs: 15 * 60_000,
  freePerPair: 5,
  baseDelayMs: 30_000,
  maxPerAccount: 100,
  maxPerIp: 30,
};

const pairBucket = (email: string, ip: string | null) => `pair:${email}|${ip ?? ''}`;
const accountBucket = (email: string) => `account:${email}`;
const ipBucket = (ip: string) => `ip:${ip}`;

/** The wait (ms) before the next attempt of a pair that already failed `n` times. */
export function pairDelayMs(policy: ThrottlePolicy, n: number): number {
  if (n < policy.freePerPair) return 0;
  const doublings = Math.min(n - policy.freePerPair, 30);
  return Math.min(policy.windowMs, policy.baseDelayMs * 2 ** doublings);
}

/** Seconds to wait given the three buckets' states, or 0. */
async function waitFor(
  db: Kysely<Database>,
  policy: ThrottlePolicy,
  email: string,
  ip: string | null,
  now: number,
): Promise<{ wait: number; pairCount: number }> {
  const since = now - policy.windowMs;
  const pair = await bucketState(db, pairBucket(email, ip), since);
  const account = await bucketState(db, accountBucket(email), since);
  let waitMs = 0;
  if (pair.n >= policy.freePerPair)
    waitMs = Math.max(waitMs, pair.newest + pairDelayMs(policy, pair.n) - now);
  // The ceilings are approximated by their oldest attempt leaving the window.
  if (account.n >= policy.maxPerAccount) waitMs = Math.max(waitMs, account.oldest + policy.windowMs - now);
  if (ip) {
    const byIp = await bucketState(db, ipBucket(ip), since);
    if (byIp.n >= policy.maxPerIp) waitMs = Math.max(waitMs, byIp.oldest + policy.windowMs - now);
  }
  return { wait: waitMs > 0 ? Math.ceil(waitMs / 1000) : 0, pairCount: pair.n };
}

/**
 * Reserves one attempt before the password is checked, atomically: the attempt's rows are
 * inserted by one statement whose condition re-counts the buckets (SQLite runs it under its write
 * lock; on PostgreSQL it runs under advisory locks for the account and the address), and only if
 * nobody else reserved an attempt of the same pair meanwhile. So 50 parallel guesses evaluate at
 * most `freePerPair` passwords. Answers the reserved rows (to release on success) or the wait.
 */
export async function reserveAttempt(
  db: Kysely<Database>,
  policy: ThrottlePolicy,
  email: string,
  ip: string | null,
  now = Date.now(),
): Promise<{ wait: 0; ids: number[] } | { wait: number; ids?: undefined }> {
  const pg = isPostgres(db as unknown as Kysely<unknown>);
  for (let round = 0; round < 5; round++) {
    const attempt = async (trx: Kysely<Database>) => {
      if (pg)
        await lockBuckets(
          trx,
          [accountBucket(email), ...(ip ? [ipBucket(ip)] : [])].map((k) => 'login:' + k),
        );
      const { wait, pairCount } = await waitFor(trx, policy, email, ip, now);
      if (wait > 0) return { wait };
      const since = now - policy.windowMs;
      const ids = await insertAttemptsIfRoom(trx, {
        now,
        since,
        pair: pairBucket(email, ip),
        pairCount,
        account: accountBucket(email),
        maxPerAccount: policy.maxPerAccount,
        ip: ip ? ipBucket(ip) : null,
        maxPerIp: policy.maxPerIp,
      });
      return ids.length ? { wait: 0 as const, ids } : null;
    };
    const res = pg ? await db.transaction().execute(attempt) : await attempt(db);
    if (res) return res.wait > 0 ? { wait: res.wait } : res;
    // Someone reserved an attempt of this pair between the count and the insert: count again.
  }
  return { wait: 1 };
}

/** A good sign-in: its own reservation and the pair's and account's failures are forgotten. */
export async function recordSuccess(
  db: Kysely<Database>,
  email: string,
  ip: string | null,
  ids: number[],
): Promise<void> {
  await deleteAttempts(db, ids, [pairBucket(email, ip), accountBucket(email)]);
}

/** Test and tool helper: records a failed attempt as the sign-in route would. */
export async function recordFailure(
  db: Kysely<Database>,
  email: string,
  ip: string | null,
  now = Date.now(),
): Promise<void> {
  await insertAttempts(db, [pairBucket(email, ip), accountBucket(email), ...(ip ? [ipBucket(ip)] : [])], now);
}

/** Seconds until `email` may try again from `ip` (0: now). */
export async function retryAfterSeconds(
  db: Kysely<Database>,
  policy: ThrottlePolicy,
  email: string,
  ip: string | null,
  now = Date.now(),
): Promise<number> {
  return (await waitFor(db, policy, email, ip, now)).wait;
}
