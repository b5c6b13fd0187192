import type { RateLimitState } from '@mailroom/contract/api-monitoring';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { ApiSettings } from './api-settings.repository.ts';
import { HOUR_MS, MINUTE_MS, readBuckets, takeFromBuckets } from './rate-bucket.repository.ts';

export interface Decision {
  admitted: boolean;
  /** Requests left in the tighter window (admitted requests). */
  remaining: number;
  /** Seconds until a refused principal may try again. */
  retryAfter: number;
}

/**
 * Routes the editable limit never counts nor refuses: this page (so an administrator can always
 * raise a limit that is too low: a change can never lock its author out), sign-in, the account's
 * own calls and the events stream.
 */
export function exemptFromLimit(route: string | undefined): boolean {
  return (
    route === undefined ||
    route.startsWith('/api/api-monitoring/') ||
    route.startsWith('/api/auth/') ||
    route.startsWith('/api/account/') ||
    route === '/api/events'
  );
}

/**
 * The editable per-principal limit (per minute and per hour), counted in the database so every
 * worker and instance shares it. Each admitted request takes one hit in one statement; once a
 * principal is refused, this process refuses it from memory until the full window ends (a
 * window's count never goes down, so that answer is the database's), which keeps a flood cheap.
 */
export class PrincipalRateLimiter {
  private readonly fullUntil = new Map<string, number>();

  constructor(
    private readonly db: Kysely<Database>,
    private readonly settings: () => ApiSettings,
  ) {}

  /** The limits changed: what this process remembered about full windows no longer holds. */
  reset(): void {
    this.fullUntil.clear();
  }

  async check(principal: string, now = Date.now()): Promise<Decision> {
    const s = this.settings();
    const until = this.fullUntil.get(principal);
    if (until !== undefined) {
      if (until > now) return { admitted: false, remaining: 0, retryAfter: Math.ceil((until - now) / 1000) };
      this.fullUntil.delete(principal);
    }
    const b = await takeFromBuckets(this.db, principal, s.ratePerMinute, s.ratePerHour, now);
    if (b.admitted)
      return {
        admitted: true,
        remaining: Math.max(0, Math.min(s.ratePerMinute - b.minuteHits, s.ratePerHour - b.hourHits)),
        retryAfter: 0,
      };
    let end = now;
    if (b.minuteHits >= s.ratePerMinute) end = Math.max(end, b.minuteStart + MINUTE_MS);
    if (b.hourHits >= s.ratePerHour) end = Math.max(end, b.hourStart + HOUR_MS);
    if (this.fullUntil.size > 10_000) this.fullUntil.clear();
    this.fullUntil.set(principal, end);
    return { admitted: false, remaining: 0, retryAfter: Math.max(1, Math.ceil((end - now) / 1000)) };
  }
}

/** The limits and the caller's own windows, as the Rate Limiting panel shows them. */
export async function rateLimitState(
  db: Kysely<Database>,
  settings: ApiSettings,
  principal: string,
  rateLimitedCount: number,
  now = Date.now(),
): Promise<RateLimitState> {
  const b = await readBuckets(db, principal, now);
  const minute = {
    limit: settings.ratePerMinute,
    currentRequests: b.minuteHits,
    resetTime: new Date(b.minuteStart + MINUTE_MS).toISOString(),
    isLimited: settings.rateEnabled && b.minuteHits >= settings.ratePerMinute,
  };
  const hour = {
    limit: settings.ratePerHour,
    currentRequests: b.hourHits,
    resetTime: new Date(b.hourStart + HOUR_MS).toISOString(),
    isLimited: settings.rateEnabled && b.hourHits >= settings.ratePerHour,
  };
  const limitedBy = hour.isLimited ? hour : minute;
  return {
    enabled: settings.rateEnabled,
    requestsPerMinute: settings.ratePerMinute,
    requestsPerHour: settings.ratePerHour,
    currentRequests: minute.currentRequests,
    resetTime: limitedBy.resetTime,
    isLimited: minute.isLimited || hour.isLimited,
    minute,
    hour,
    rateLimitedCount,
  };
}
