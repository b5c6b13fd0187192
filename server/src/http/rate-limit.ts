import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import type { DatabaseHandle } from '../db/database.ts';
import type { Database } from '../db/schema.ts';
import { tooManyRequests } from './errors.ts';
import { addRateHits } from './rate-limit.repository.ts';
import { type AddHits, BatchedCounter } from './rate-limit-store.ts';

export interface RateLimitPolicy {
  /** Requests per window from one client address (every request, signed in or not); 0 = off. */
  perIp: number;
  /** Requests per window of one signed-in session; 0 = off. */
  perSession: number;
  windowMs: number;
}

export const RATE_LIMIT_MESSAGE = (seconds: number) =>
  `Too many requests. Try again in ${seconds} second${seconds === 1 ? '' : 's'}.`;

/**
 * A fixed-window counter in the `rate_limits` table, so every worker and every Mailroom instance
 * on one database counts against the same limit; the hits are added in batches while a key is far
 * below its limit (`BatchedCounter`).
 */
export function databaseCounter(db: Kysely<Database>): BatchedCounter {
  const add: AddHits = async (key, delta, windowMs, now) => {
    const row = await addRateHits(db, key, delta, windowMs, now);
    return { hits: Number(row?.hits ?? delta), windowStart: Number(row?.window_start ?? now) };
  };
  return new BatchedCounter(add);
}

/**
 * One limit as an onRequest hook: counts the request under its key and refuses it (429 +
 * Retry-After) once the window's count passes `max`. The counter answers through a callback, so a
 * request counted in memory (the usual case) passes without a promise.
 */
function limitHook(
  counter: BatchedCounter,
  max: number,
  windowMs: number,
  keyOf: (request: FastifyRequest) => string | null,
) {
  return (request: FastifyRequest, _reply: unknown, done: (err?: Error) => void) => {
    const key = keyOf(request);
    if (key === null) return done();
    counter.incr(
      key,
      (err, r) => {
        if (err || !r) {
          // A counting failure must not take the API down: let the request through, say so.
          request.log.warn({ err }, 'rate limit store failed');
          return done();
        }
        if (r.current > max) {
          const wait = Math.max(1, Math.ceil(r.ttl / 1000));
          return done(tooManyRequests(wait, RATE_LIMIT_MESSAGE(wait)));
        }
        done();
      },
      windowMs,
      max,
    );
  };
}

/**
 * The general API rate limit (fixed windows, our error shape: 429 + Retry-After). Per address on
 * every request, before authentication, so unauthenticated floods are limited too; per session
 * after the auth guard has found the session (install this around it: the address limit before
 * `installAuthGuard`, `afterAuth` after). The counters live in the database, shared by every
 * worker and instance.
 */
export function registerRateLimit(
  app: FastifyInstance,
  database: DatabaseHandle,
  policy: RateLimitPolicy,
): { afterAuth: () => void } {
  if (policy.perIp <= 0 && policy.perSession <= 0) return { afterAuth: () => undefined };
  // One counter for both limits: their keys differ (`ip:`, `session:`).
  const counter = databaseCounter(database.db);
  const onApi = (request: FastifyRequest) =>
    request.url.startsWith('/api') || request.url.startsWith('/auth/');
  if (policy.perIp > 0)
    app.addHook(
      'onRequest',
      limitHook(counter, policy.perIp, policy.windowMs, (request) =>
        onApi(request) ? `ip:${request.ip}` : null,
      ),
    );
  return {
    afterAuth: () => {
      if (policy.perSession <= 0) return;
      app.addHook(
        'onRequest',
        limitHook(counter, policy.perSession, policy.windowMs, (request) =>
          request.admin !== null ? `session:${request.admin.sessionId}` : null,
        ),
      );
    },
  };
}
