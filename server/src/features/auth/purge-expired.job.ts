import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { purgeSessions } from '../../http/session.repository.ts';
import { purgeRateLimits } from '../../http/rate-limit.repository.ts';
import { purgeLoginAttempts } from './login-attempt.repository.ts';

export interface PurgeRetention {
  /** Sessions unused this long are dead (the idle timeout). */
  sessionIdleMs: number;
  /** Sign-in attempts older than this count for nothing (longer than any throttle window). */
  attemptMaxAgeMs: number;
  /** Rate-limit counters whose window started this long ago. */
  rateLimitMaxAgeMs: number;
}

export const DEFAULT_RETENTION: PurgeRetention = {
  sessionIdleMs: 30 * 60_000,
  attemptMaxAgeMs: 24 * 3_600_000,
  rateLimitMaxAgeMs: 3_600_000,
};

export interface PurgeResult {
  sessions: number;
  loginAttempts: number;
  rateLimits: number;
}

/**
 * Removes expired sessions (past their absolute end or idle too long), old sign-in attempts and
 * stale rate-limit counters. Safe to run from several processes at once: each is one delete.
 */
export async function purgeExpired(
  db: Kysely<Database>,
  now = Date.now(),
  retention: PurgeRetention = DEFAULT_RETENTION,
): Promise<PurgeResult> {
  const sessions = await purgeSessions(db, now, now - retention.sessionIdleMs);
  const loginAttempts = await purgeLoginAttempts(db, now - retention.attemptMaxAgeMs);
  const rateLimits = await purgeRateLimits(db, now - retention.rateLimitMaxAgeMs);
  return { sessions, loginAttempts, rateLimits };
}

/**
 * Runs `purgeExpired` every `intervalMs` in this process (unref'd: it never keeps the process
 * alive). Answers a stop function for the app's close.
 */
export function startPurgeTimer(
  db: Kysely<Database>,
  intervalMs: number,
  retention: PurgeRetention,
  onError: (err: unknown) => void,
): () => void {
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    purgeExpired(db, Date.now(), retention)
      .catch(onError)
      .finally(() => {
        running = false;
      });
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
