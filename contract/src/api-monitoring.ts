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

/** What an API key may reach: the areas of the console's API, and /metrics. */
export const API_KEY_AREAS = ['mail', 'dns', 'ssl', 'system', 'metrics'] as const;
export const ApiKeyArea = z.enum(API_KEY_AREAS);
export const API_KEY_AREA_LABELS: Record<(typeof API_KEY_AREAS)[number], string> = {
  mail: 'Mail',
  dns: 'DNS',
  ssl: 'SSL',
  system: 'System',
  metrics: 'Metrics (/metrics)',
};
export const ApiKeyAccess = z.enum(['read', 'read-write']);
/** Expiry choices in days. */
export const API_KEY_EXPIRY_DAYS = [7, 30, 90, 365] as const;

/** An address (IPv4 or IPv6) or a CIDR range. */
const ADDRESS_RE = /^(?:(?:\d{1,3}\.){3}\d{1,3}(?:\/\d{1,2})?|[0-9a-fA-F:]+(?:\/\d{1,3})?)$/;
export const addressList = (label: string) =>
  z
    .array(z.string().trim().regex(ADDRESS_RE, `${label} format is invalid`))
    .max(50, `${label} must be at most 50 entries`);

export const CreateApiKey = z.object({
  name: z
    .string({ error: 'Name is required' })
    .trim()
    .min(1, 'Name is required')
    .max(64, 'Name must be at most 64 characters')
    .regex(/^[A-Za-z0-9][A-Za-z0-9 ._-]*$/, 'Name format is invalid'),
  access: ApiKeyAccess,
  areas: z.array(ApiKeyArea).min(1, 'Areas is required'),
  /** Empty: every domain; else like a domain administrator's domains. */
  domains: z
    .array(
      z
        .string()
        .trim()
        .toLowerCase()
        .regex(
          /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,}$/,
          'Please enter a valid domain name',
        ),
    )
    .max(100),
  expiresInDays: z.union(
    API_KEY_EXPIRY_DAYS.map((d) => z.literal(d)) as [
      z.ZodLiteral<7>,
      z.ZodLiteral<30>,
      z.ZodLiteral<90>,
      z.ZodLiteral<365>,
    ],
    {
      error: 'Expiry is required',
    },
  ),
  allowedAddresses: addressList('Allowed addresses'),
});
export type CreateApiKey = z.infer<typeof CreateApiKey>;

/**
 * One key's figures over a window, from the per-key roll-ups of every worker and instance
 * (response times in milliseconds, read from the summed histogram; null when it made no request).
 */
export const ApiKeyFigures = z.object({
  window: StatsWindow,
  requestCount: z.number(),
  /** 5xx answers. */
  errorCount: z.number(),
  /** 4xx answers (429 included). */
  clientErrorCount: z.number(),
  /** 429 answers (the rate limit). */
  rateLimitedCount: z.number(),
  errorRate: z.number().nullable(),
  averageResponseTime: z.number().nullable(),
  p50: z.number().nullable(),
  p95: z.number().nullable(),
  p99: z.number().nullable(),
});
export type ApiKeyFigures = z.infer<typeof ApiKeyFigures>;

export const ApiKeyView = z.object({
  id: z.number(),
  name: z.string(),
  prefix: z.string(),
  access: ApiKeyAccess,
  areas: z.array(ApiKeyArea),
  domains: z.array(z.string()),
  allowedAddresses: z.array(z.string()),
  createdAt: z.string(),
  createdBy: z.string(),
  expiresAt: z.string(),
  revokedAt: z.string().nullable(),
  lastUsedAt: z.string().nullable(),
  lastIp: z.string().nullable(),
  status: z.enum(['active', 'expired', 'revoked']),
  /** Every call since the key was made (5xx counted in `errors`). */
  requests: z.number(),
  errors: z.number(),
  /** The key's own rate limit buckets (the same limits as every principal). */
  currentMinute: z.number(),
  currentHour: z.number(),
  /** Whether the key's buckets are full now (the limit enabled). */
  rateLimited: z.boolean(),
  figures: ApiKeyFigures,
});
export type ApiKeyView = z.infer<typeof ApiKeyView>;

/** The figures' window (default: the last 24 hours). */
export const ApiKeyListQuery = z.object({ window: StatsWindow.optional() });

export const ApiKeyList = z.object({
  keys: z.array(ApiKeyView),
  /** The limits each key's buckets count against. */
  rateLimit: z.object({ enabled: z.boolean(), requestsPerMinute: z.number(), requestsPerHour: z.number() }),
});
export type ApiKeyList = z.infer<typeof ApiKeyList>;
/** The key itself is in this answer only: it is stored hashed. */
export const ApiKeyCreated = z.object({ key: ApiKeyView, token: z.string() });
export const ApiKeyParams = z.object({ id: z.coerce.number().int().min(1) });

export const MetricsAccess = z.object({
  protected: z.boolean(),
  allowedAddresses: addressList('Allowed addresses'),
});
export type MetricsAccess = z.infer<typeof MetricsAccess>;

export const apiKeyRoutes = {
  list: defineRoute({
    method: 'GET',
    path: 'api-monitoring/keys',
    summary: 'API keys with their figures over a window, rate limit buckets and last use',
    tags: ['api-monitoring'],
    query: ApiKeyListQuery,
    response: ApiKeyList,
  }),
  create: defineRoute({
    method: 'POST',
    path: 'api-monitoring/keys',
    summary: 'Create an API key (shown once)',
    tags: ['api-monitoring'],
    body: CreateApiKey,
    response: ApiKeyCreated,
    audit: 'api.key.create',
  }),
  revoke: defineRoute({
    method: 'POST',
    path: 'api-monitoring/keys/:id/revoke',
    summary: 'Revoke an API key',
    tags: ['api-monitoring'],
    params: ApiKeyParams,
    response: ApiKeyView,
    audit: 'api.key.revoke',
  }),
  metricsAccess: defineRoute({
    method: 'GET',
    path: 'api-monitoring/metrics-access',
    summary: 'Who may read /metrics',
    tags: ['api-monitoring'],
    response: MetricsAccess,
  }),
  saveMetricsAccess: defineRoute({
    method: 'PUT',
    path: 'api-monitoring/metrics-access',
    summary: 'Protect /metrics (a key with the metrics area, or allowed addresses)',
    tags: ['api-monitoring'],
    body: MetricsAccess,
    response: MetricsAccess,
    audit: 'api.metrics-access.update',
  }),
};
