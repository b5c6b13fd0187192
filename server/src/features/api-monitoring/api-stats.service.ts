import type { ApiKeyFigures, ApiStats, RouteStats, StatsWindow } from '@mailroom/contract/api-monitoring';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { type KeySums, recentRequests, routeSums, type RouteSums } from './api-stats.repository.ts';
import { quantile } from './latency-histogram.service.ts';

export const WINDOW_MINUTES: Record<StatsWindow, number> = { '5m': 5, '1h': 60, '24h': 1440 };

const round = (v: number, places = 2) => Math.round(v * 10 ** places) / 10 ** places;
const pct = (part: number, whole: number) => (whole > 0 ? round((part / whole) * 100, 2) : null);

/** Window sums of several routes added together. */
export function addSums(rows: RouteSums[]): Omit<RouteSums, 'method' | 'route'> {
  const out = {
    count: 0,
    errors: 0,
    clientErrors: 0,
    limited: 0,
    cacheHits: 0,
    cacheMisses: 0,
    cacheBypasses: 0,
    cacheEvictions: 0,
    totalMs: 0,
    maxMs: 0,
    buckets: [] as number[],
  };
  for (const r of rows) {
    out.count += r.count;
    out.errors += r.errors;
    out.clientErrors += r.clientErrors;
    out.limited += r.limited;
    out.cacheHits += r.cacheHits;
    out.cacheMisses += r.cacheMisses;
    out.cacheBypasses += r.cacheBypasses;
    out.cacheEvictions += r.cacheEvictions;
    out.totalMs += r.totalMs;
    out.maxMs = Math.max(out.maxMs, r.maxMs);
    r.buckets.forEach((v, i) => (out.buckets[i] = (out.buckets[i] ?? 0) + v));
  }
  return out;
}

/** The window's first minute (the current minute counts as one of them). */
export const fromMinute = (window: StatsWindow, now: number) =>
  Math.floor(now / 60_000) - WINDOW_MINUTES[window] + 1;

/** The page's statistics over a window, from the roll-ups every worker and instance wrote. */
export async function apiStats(
  db: Kysely<Database>,
  window: StatsWindow,
  now = Date.now(),
): Promise<ApiStats> {
  const [rows, recent] = await Promise.all([routeSums(db, fromMinute(window, now)), recentRequests(db, 30)]);
  const all = addSums(rows);
  const routes: RouteStats[] = rows
    .filter((r) => r.count > 0)
    .map((r) => ({
      method: r.method,
      route: r.route,
      requestCount: r.count,
      errorCount: r.errors,
      clientErrorCount: r.clientErrors,
      averageResponseTime: round(r.totalMs / r.count),
      p50: round(quantile(r.buckets, 0.5, r.maxMs) ?? 0),
      p95: round(quantile(r.buckets, 0.95, r.maxMs) ?? 0),
      p99: round(quantile(r.buckets, 0.99, r.maxMs) ?? 0),
      maxResponseTime: round(r.maxMs),
      errorRate: pct(r.errors, r.count) ?? 0,
    }))
    .sort((a, b) => b.p95 - a.p95 || b.averageResponseTime - a.averageResponseTime);
  const q = (p: number) => {
    const v = quantile(all.buckets, p, all.maxMs);
    return v === null ? null : round(v);
  };
  const eligible = all.cacheHits + all.cacheMisses;
  return {
    window,
    requestCount: all.count,
    errorCount: all.errors,
    clientErrorCount: all.clientErrors,
    rateLimitedCount: all.limited,
    averageResponseTime: all.count ? round(all.totalMs / all.count) : null,
    p50: q(0.5),
    p95: q(0.95),
    p99: q(0.99),
    errorRate: pct(all.errors, all.count),
    clientErrorRate: pct(all.clientErrors, all.count),
    cacheHitRate: pct(all.cacheHits, eligible),
    routes,
    recent: recent.map((r) => ({
      timestamp: new Date(r.at).toISOString(),
      method: r.method,
      route: r.route,
      status: r.status,
      responseTime: round(r.ms),
      cache: r.cache === 'hit' || r.cache === 'miss' || r.cache === 'bypass' ? r.cache : null,
    })),
  };
}

/** A key's figures over a window from its summed roll-ups ("—" everywhere when it made no request). */
export function keyFigures(window: StatsWindow, sums: KeySums | undefined): ApiKeyFigures {
  const q = (p: number) => {
    const v = sums ? quantile(sums.buckets, p, sums.maxMs) : null;
    return v === null ? null : round(v);
  };
  const count = sums?.count ?? 0;
  return {
    window,
    requestCount: count,
    errorCount: sums?.errors ?? 0,
    clientErrorCount: sums?.clientErrors ?? 0,
    rateLimitedCount: sums?.limited ?? 0,
    errorRate: pct(sums?.errors ?? 0, count),
    averageResponseTime: sums && count ? round(sums.totalMs / count) : null,
    p50: q(0.5),
    p95: q(0.95),
    p99: q(0.99),
  };
}
