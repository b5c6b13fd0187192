import type {
  ApiStats,
  CacheForm,
  CacheState,
  RateLimitForm,
  RateLimitState,
  StatsWindow,
} from '@mailroom/contract/api-monitoring';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { SessionAdmin } from '../../http/sessions.ts';
import type { ApiMonitor } from './api-monitoring.module.ts';
import { cacheSize, routeSums } from './api-stats.repository.ts';
import { addSums, apiStats, fromMinute } from './api-stats.service.ts';
import {
  type ApiSettings,
  bumpCacheGeneration,
  readApiSettings,
  writeCacheSettings,
  writeRateSettings,
} from './api-settings.repository.ts';
import { principalOf } from './api-key.service.ts';
import { rateLimitState } from './rate-limit.service.ts';

/** How recently a process must have reported its cache size to be counted. */
const NODE_FRESH_MS = 30_000;

export async function readStats(
  db: Kysely<Database>,
  monitor: ApiMonitor,
  window: StatsWindow,
): Promise<ApiStats> {
  await monitor.flush();
  return apiStats(db, window);
}

export async function readRateLimit(
  db: Kysely<Database>,
  monitor: ApiMonitor,
  admin: SessionAdmin,
): Promise<RateLimitState> {
  await monitor.flush();
  const now = Date.now();
  const [settings, rows] = await Promise.all([readApiSettings(db), routeSums(db, fromMinute('24h', now))]);
  return rateLimitState(db, settings, principalOf(admin), addSums(rows).limited, now);
}

const rateView = (s: ApiSettings) => ({
  enabled: s.rateEnabled,
  requestsPerMinute: s.ratePerMinute,
  requestsPerHour: s.ratePerHour,
});

/** Saves the limits and takes them at once in this process; answers the before and after for the audit. */
export async function saveRateLimit(
  db: Kysely<Database>,
  monitor: ApiMonitor,
  form: RateLimitForm,
): Promise<{ before: ReturnType<typeof rateView>; after: ReturnType<typeof rateView> }> {
  const { before, after } = await db.transaction().execute(async (trx) => {
    const before = await readApiSettings(trx);
    await writeRateSettings(trx, {
      enabled: form.enabled,
      perMinute: form.requestsPerMinute,
      perHour: form.requestsPerHour,
    });
    return { before, after: await readApiSettings(trx) };
  });
  monitor.apply(after);
  return { before: rateView(before), after: rateView(after) };
}

export async function readCache(db: Kysely<Database>, monitor: ApiMonitor): Promise<CacheState> {
  await monitor.flush();
  const now = Date.now();
  const [settings, rows, size] = await Promise.all([
    readApiSettings(db),
    routeSums(db, fromMinute('24h', now)),
    cacheSize(db, now - NODE_FRESH_MS),
  ]);
  const sums = addSums(rows);
  const eligible = sums.cacheHits + sums.cacheMisses;
  return {
    config: { enabled: settings.cacheEnabled, ttl: settings.cacheTtlSeconds, maxSize: settings.cacheMaxSize },
    stats: {
      hits: sums.cacheHits,
      misses: sums.cacheMisses,
      bypasses: sums.cacheBypasses,
      evictions: sums.cacheEvictions,
      size,
      hitRate: eligible ? Math.round((sums.cacheHits / eligible) * 10000) / 100 : null,
    },
  };
}

const cacheView = (s: ApiSettings) => ({
  enabled: s.cacheEnabled,
  ttl: s.cacheTtlSeconds,
  maxSize: s.cacheMaxSize,
});

export async function saveCache(
  db: Kysely<Database>,
  monitor: ApiMonitor,
  form: CacheForm,
): Promise<{ before: ReturnType<typeof cacheView>; after: ReturnType<typeof cacheView> }> {
  const { before, after } = await db.transaction().execute(async (trx) => {
    const before = await readApiSettings(trx);
    await writeCacheSettings(trx, { enabled: form.enabled, ttlSeconds: form.ttl, maxSize: form.maxSize });
    return { before, after: await readApiSettings(trx) };
  });
  monitor.apply(after);
  return { before: cacheView(before), after: cacheView(after) };
}

export async function clearCache(db: Kysely<Database>, monitor: ApiMonitor): Promise<void> {
  await bumpCacheGeneration(db);
  monitor.apply(await readApiSettings(db));
  monitor.clearCache();
}
