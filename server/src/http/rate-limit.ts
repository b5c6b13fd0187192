import fastifyRateLimit, { type FastifyRateLimitStore } from '@fastify/rate-limit';
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
 * A fixed-window counter in the `rate_limits` table, so every Mailroom instance on one PostgreSQL
 * database counts against the same limit; the hits are added in batches while a key is far below
 * its limit (`BatchedCounter`).
 */
export function databaseStore(db: Kysely<Database>) {
  const add: AddHits = async (key, delta, windowMs, now) => {
    const row = await addRateHits(db, key, delta, windowMs, now);
    return { hits: Number(row?.hits ?? delta), windowStart: Number(row?.window_start ?? now) };
  };
  // One counter for the app: the route-level children share it.
  const counter = new BatchedCounter(add);
  return class DatabaseRateLimitStore implements FastifyRateLimitStore {
    incr(
      key: string,
      callback: (error: Error | null, result?: { current: number; ttl: number }) => void,
      timeWindow?: number,
      max?: number,
    ): void {
      counter.incr(key, callback, timeWindow ?? 60_000, max ?? Infinity);
    }

    child(): FastifyRateLimitStore {
      return new DatabaseRateLimitStore();
    }
  };
}

type Limiter = ReturnType<FastifyInstance['createRateLimit']>;

function limitHook(limiter: Limiter, applies: (request: FastifyRequest) => boolean) {
  return (request: FastifyRequest, _reply: unknown, done: (err?: Error) => void) => {
    if (!applies(request)) return done();
    limiter(request).then(
      (r) => {
        if (!r.isAllowed && r.isExceeded) {
          const wait = Math.max(1, r.ttlInSeconds);
          return done(tooManyRequests(wait, RATE_LIMIT_MESSAGE(wait)));
        }
        done();
      },
      (err: Error) => {
        // A counting failure must not take the API down: let the request through, say so.
        request.log.warn({ err }, 'rate limit store failed');
        done();
      },
    );
  };
}

/**
 * The general API rate limit (@fastify/rate-limit's counting, our error shape: 429 + Retry-After).
 * Per address on every request, before authentication, so unauthenticated floods are limited too;
 * per session after the auth guard has found the session (install this around it: `beforeAuth`
 * before `installAuthGuard`, `afterAuth` after). The counters live in the database, shared by every
 * worker and instance.
 */
export async function registerRateLimit(
  app: FastifyInstance,
  database: DatabaseHandle,
  policy: RateLimitPolicy,
): Promise<{ afterAuth: () => void }> {
  if (policy.perIp <= 0 && policy.perSession <= 0) return { afterAuth: () => undefined };
  await app.register(fastifyRateLimit, {
    global: false,
    timeWindow: policy.windowMs,
    // In the database on both dialects: every worker process (and instance) counts against one
    // limit (in memory, each worker of a SQLite server admitted its own full limit).
    store: databaseStore(database.db),
  });
  const onApi = (request: FastifyRequest) =>
    request.url.startsWith('/api') || request.url.startsWith('/auth/');
  if (policy.perIp > 0) {
    const byIp = app.createRateLimit({
      max: policy.perIp,
      timeWindow: policy.windowMs,
      keyGenerator: (request) => `ip:${request.ip}`,
    });
    app.addHook('onRequest', limitHook(byIp, onApi));
  }
  return {
    afterAuth: () => {
      if (policy.perSession <= 0) return;
      const bySession = app.createRateLimit({
        max: policy.perSession,
        timeWindow: policy.windowMs,
        keyGenerator: (request) => `session:${request.admin?.sessionId ?? 0}`,
      });
      app.addHook(
        'onRequest',
        limitHook(bySession, (request) => request.admin !== null),
      );
    },
  };
}
