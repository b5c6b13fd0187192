import { z } from 'zod';
import { defineRoute } from './route.ts';
import { requiredInt } from './validators.ts';

/** Spec §5 / §9: rate limits 1–1000 per minute and 1–10000 per hour; cache size 10–1000. */
export const RATE_PER_MINUTE = { min: 1, max: 1000 } as const;
export const RATE_PER_HOUR = { min: 1, max: 10000 } as const;
export const CACHE_MAX_SIZE = { min: 10, max: 1000 } as const;
/** Spec §9: TTL 1, 5, 10, 30 minutes or 1 hour (seconds). */
export const CACHE_TTL_CHOICES = [60, 300, 600, 1800, 3600] as const;
export const CACHE_TTL_LABELS: Record<(typeof CACHE_TTL_CHOICES)[number], string> = {
  60: '1 minute',
  300: '5 minutes',
  600: '10 minutes',
  1800: '30 minutes',
  3600: '1 hour',
};

export const STATS_WINDOWS = ['5m', '1h', '24h'] as const;
export const StatsWindow = z.enum(STATS_WINDOWS);
export type StatsWindow = z.infer<typeof StatsWindow>;
export const STATS_WINDOW_LABELS: Record<StatsWindow, string> = {
  '5m': 'Last 5 minutes',
  '1h': 'Last hour',
  '24h': 'Last 24 hours',
};

export const CacheOutcome = z.enum(['hit', 'miss', 'bypass']);

/** One route pattern's figures over the window (response times in milliseconds). */
export const RouteStats = z.object({
  method: z.string(),
  route: z.string(),
  requestCount: z.number(),
  errorCount: z.number(),
  clientErrorCount: z.number(),
  averageResponseTime: z.number(),
  p50: z.number(),
  p95: z.number(),
  p99: z.number(),
  maxResponseTime: z.number(),
  errorRate: z.number(),
});
export type RouteStats = z.infer<typeof RouteStats>;

export const RecentRequest = z.object({
  timestamp: z.string(),
  method: z.string(),
  route: z.string(),
  status: z.number(),
  responseTime: z.number(),
  cache: CacheOutcome.nullable(),
});
export type RecentRequest = z.infer<typeof RecentRequest>;

/**
 * Spec §3.5 API stats, from the server's real traffic summed over every worker and instance. Rates
 * are percentages; times are milliseconds; null when there was nothing to measure ("—").
 */
export const ApiStats = z.object({
  window: StatsWindow,
  requestCount: z.number(),
  errorCount: z.number(),
  clientErrorCount: z.number(),
  rateLimitedCount: z.number(),
  averageResponseTime: z.number().nullable(),
  p50: z.number().nullable(),
  p95: z.number().nullable(),
  p99: z.number().nullable(),
  errorRate: z.number().nullable(),
  clientErrorRate: z.number().nullable(),
  cacheHitRate: z.number().nullable(),
  /** Slowest first (p95). */
  routes: z.array(RouteStats),
  /** The latest 30 requests, newest first. */
  recent: z.array(RecentRequest),
});
export type ApiStats = z.infer<typeof ApiStats>;

export const ApiStatsQuery = z.object({ window: StatsWindow.optional() });

export const RateLimitWindow = z.object({
  limit: z.number(),
  currentRequests: z.number(),
  resetTime: z.string(),
  isLimited: z.boolean(),
});

/** Spec §3.5 rate limit state: the limits, and the caller's own buckets. */
export const RateLimitState = z.object({
  enabled: z.boolean(),
  requestsPerMinute: z.number(),
  requestsPerHour: z.number(),
  currentRequests: z.number(),
  resetTime: z.string(),
  isLimited: z.boolean(),
  minute: RateLimitWindow,
  hour: RateLimitWindow,
  /** 429 answers over the last 24 hours (every principal). */
  rateLimitedCount: z.number(),
});
export type RateLimitState = z.infer<typeof RateLimitState>;

export const RateLimitForm = z.object({
  enabled: z.boolean(),
  requestsPerMinute: requiredInt('Requests per minute', RATE_PER_MINUTE.min, RATE_PER_MINUTE.max),
  requestsPerHour: requiredInt('Requests per hour', RATE_PER_HOUR.min, RATE_PER_HOUR.max),
});
export type RateLimitForm = z.infer<typeof RateLimitForm>;

const ttlChoice = z
  .number({ error: 'TTL is required' })
  .refine(
    (v) => (CACHE_TTL_CHOICES as readonly number[]).includes(v),
    'TTL must be 1, 5, 10 or 30 minutes or 1 hour',
  );

/** Spec §3.5 cache config (TTL in seconds). */
export const CacheForm = z.object({
  enabled: z.boolean(),
  ttl: ttlChoice,
  maxSize: requiredInt('Max size', CACHE_MAX_SIZE.min, CACHE_MAX_SIZE.max),
});
export type CacheForm = z.infer<typeof CacheForm>;

export const CacheState = z.object({
  config: z.object({ enabled: z.boolean(), ttl: z.number(), maxSize: z.number() }),
  /** Over the last 24 hours, every worker; `size`: entries held now by every worker. */
  stats: z.object({
    hits: z.number(),
    misses: z.number(),
    bypasses: z.number(),
    evictions: z.number(),
    size: z.number(),
    hitRate: z.number().nullable(),
  }),
});
export type CacheState = z.infer<typeof CacheState>;

export const CacheCleared = z.object({ cleared: z.literal(true) });

export const apiMonitoringRoutes = {
  stats: defineRoute({
    method: 'GET',
    path: 'api-monitoring/stats',
    summary: 'API statistics from real traffic (every worker and instance)',
    tags: ['api-monitoring'],
    query: ApiStatsQuery,
    response: ApiStats,
  }),
  rateLimit: defineRoute({
    method: 'GET',
    path: 'api-monitoring/rate-limit',
    summary: "The rate limits and the caller's buckets",
    tags: ['api-monitoring'],
    response: RateLimitState,
  }),
  saveRateLimit: defineRoute({
    method: 'PUT',
    path: 'api-monitoring/rate-limit',
    summary: 'Change the rate limits (every worker within 5 s)',
    tags: ['api-monitoring'],
    body: RateLimitForm,
    response: RateLimitState,
    audit: 'api.rate-limit.update',
  }),
  cache: defineRoute({
    method: 'GET',
    path: 'api-monitoring/cache',
    summary: 'Response cache configuration and statistics',
    tags: ['api-monitoring'],
    response: CacheState,
  }),
  saveCache: defineRoute({
    method: 'PUT',
    path: 'api-monitoring/cache',
    summary: 'Change the response cache configuration',
    tags: ['api-monitoring'],
    body: CacheForm,
    response: CacheState,
    audit: 'api.cache.update',
  }),
  clearCache: defineRoute({
    method: 'POST',
    path: 'api-monitoring/cache/clear',
    summary: 'Empty the response cache of every worker',
    tags: ['api-monitoring'],
    response: CacheCleared,
    audit: 'api.cache.clear',
  }),
};
