/**
 * The page's colour rules. Error rate: spec §9 (up to 1 % success, up to 5 % warning, above 5 %
 * error). Response time and cache performance have no rule in the spec: response time is judged
 * on the p95 (up to 300 ms healthy, up to 1 s slow, above that critical), the cache on its hit
 * rate (50 % or more healthy, 20 % or more low, below that poor); nothing measured is neutral.
 */
export type Level = 'success' | 'warning' | 'error' | 'none';

export const LEVEL_COLOR: Record<Level, string> = {
  success: 'green',
  warning: 'yellow',
  error: 'red',
  none: 'gray',
};

export function errorRateLevel(rate: number | null): Level {
  if (rate === null) return 'none';
  if (rate <= 1) return 'success';
  if (rate <= 5) return 'warning';
  return 'error';
}

export function responseTimeLevel(p95: number | null): Level {
  if (p95 === null) return 'none';
  if (p95 <= 300) return 'success';
  if (p95 <= 1000) return 'warning';
  return 'error';
}

export function cacheLevel(hitRate: number | null): Level {
  if (hitRate === null) return 'none';
  if (hitRate >= 50) return 'success';
  if (hitRate >= 20) return 'warning';
  return 'error';
}

/** 12.3 ms, 1.2 s; '—' when nothing was measured. */
export function formatMs(ms: number | null): string {
  if (ms === null) return '—';
  if (ms >= 1000) return `${(ms / 1000).toFixed(2)} s`;
  return `${ms < 10 ? ms.toFixed(2) : ms.toFixed(1)} ms`;
}

export function formatPercent(v: number | null): string {
  return v === null ? '—' : `${v.toFixed(1)} %`;
}
