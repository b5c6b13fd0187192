import type { StatsWindow } from '@mailroom/contract/api-monitoring';

/** Query keys of the API Monitoring page. */
export const apiMonitoringKeys = {
  all: ['api-monitoring'] as const,
  stats: (window: StatsWindow) => ['api-monitoring', 'stats', window] as const,
  rateLimit: () => ['api-monitoring', 'rate-limit'] as const,
  cache: () => ['api-monitoring', 'cache'] as const,
  /** Every window's key list (what a create or revoke refreshes). */
  keysAll: () => ['api-monitoring', 'keys'] as const,
  keys: (window: StatsWindow) => ['api-monitoring', 'keys', window] as const,
  metricsAccess: () => ['api-monitoring', 'metrics-access'] as const,
};

/** The page refreshes itself this often (its own calls are left out of the figures). */
export const API_MONITORING_REFRESH_MS = 15_000;
