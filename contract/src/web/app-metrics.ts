import { z } from 'zod';
import { defineRoute } from '../route.ts';
import { APP_NAME_RE } from './applications.ts';
import { formatInvalid } from './fields.ts';

/**
 * An application's own figures (issue 20, "monitoring endpoint"): with Enable Monitoring, Mailroom
 * asks the running release's loopback port for the Monitoring Endpoint every
 * `APP_SCRAPE_INTERVAL_SECONDS`, reads it as Prometheus text exposition (version 0.0.4) and keeps the
 * latest reading. Bounded: at most `APP_SCRAPE_MAX_BYTES` of answer, `APP_SCRAPE_TIMEOUT_MS` to answer,
 * `APP_SCRAPE_MAX_SERIES` series kept (counters, gauges and untyped first; histogram buckets and
 * summary quantiles are left out, their _sum and _count kept). An answer that is not Prometheus text
 * is shown as its parse error, never as zeros.
 */
export const APP_SCRAPE_INTERVAL_SECONDS = 30;
export const APP_SCRAPE_TIMEOUT_MS = 5000;
export const APP_SCRAPE_MAX_BYTES = 512 * 1024;
export const APP_SCRAPE_MAX_SERIES = 200;

export const PROM_TYPES = ['counter', 'gauge', 'untyped', 'histogram', 'summary'] as const;
export type PromType = (typeof PROM_TYPES)[number];

export const AppMetricSeries = z.object({
  /** The sample's metric name (e.g. http_requests_total, or a histogram's …_count). */
  name: z.string(),
  /** The metric family's TYPE (untyped when the exposition says none). */
  type: z.enum(PROM_TYPES),
  help: z.string(),
  labels: z.record(z.string(), z.string()),
  /** The value (NaN and ±Inf are answered as null with `raw`). */
  value: z.number().nullable(),
  raw: z.string(),
});
export type AppMetricSeries = z.infer<typeof AppMetricSeries>;

export const APP_METRICS_STATES = ['ok', 'error', 'not-scraped', 'off', 'not-running'] as const;

export const AppMetrics = z.object({
  name: z.string(),
  /** ok: the latest scrape parsed; error: `error` says why; not-scraped: none yet; off: Enable Monitoring
   * is off; not-running: no process of the app runs (Static/Angular apps, or stopped). */
  state: z.enum(APP_METRICS_STATES),
  endpoint: z.string(),
  /** When the latest scrape ran (ISO), null when never. */
  scrapedAt: z.string().nullable(),
  /** Why the latest scrape gave no figures (HTTP status, timeout, the parse error with its line). */
  error: z.string().nullable(),
  httpStatus: z.number().nullable(),
  /** Bytes of the answer read, and how long it took. */
  bytes: z.number(),
  durationMs: z.number(),
  /** Series in the answer, and how many of them `series` holds (at most APP_SCRAPE_MAX_SERIES). */
  seriesTotal: z.number(),
  series: z.array(AppMetricSeries),
  intervalSeconds: z.number(),
});
export type AppMetrics = z.infer<typeof AppMetrics>;

export const appMetricsRoutes = {
  get: defineRoute({
    method: 'GET',
    path: 'web/applications/:name/metrics',
    summary:
      "The latest reading of the app's Monitoring Endpoint (Prometheus text, scraped through its port), or why there is none",
    tags: ['web-applications'],
    params: z.object({ name: z.string().regex(APP_NAME_RE, formatInvalid('Name')) }),
    response: AppMetrics,
  }),
};
