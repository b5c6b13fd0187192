import { describe, expect, it } from 'vitest';
import { keyFigures } from './api-stats.service.ts';
import { bucketOf, LATENCY_BUCKETS } from './latency-histogram.service.ts';

const histogram = (times: number[]) => {
  const b = new Array<number>(LATENCY_BUCKETS).fill(0);
  for (const t of times) b[bucketOf(t)]!++;
  return b;
};

describe('keyFigures', () => {
  it('a key without requests has a count of 0 and no rates or times ("—")', () => {
    expect(keyFigures('24h', undefined)).toEqual({
      window: '24h',
      requestCount: 0,
      errorCount: 0,
      clientErrorCount: 0,
      rateLimitedCount: 0,
      errorRate: null,
      averageResponseTime: null,
      p50: null,
      p95: null,
      p99: null,
    });
  });

  it('percentiles come from the summed histogram: 90 fast calls and 10 slow ones', () => {
    const times = [...Array.from({ length: 90 }, () => 3), ...Array.from({ length: 10 }, () => 150)];
    const f = keyFigures('1h', {
      minute: 0,
      keyId: 1,
      count: 100,
      errors: 7,
      clientErrors: 3,
      limited: 1,
      totalMs: times.reduce((a, b) => a + b, 0),
      maxMs: 150,
      buckets: histogram(times),
    });
    expect(f).toMatchObject({ requestCount: 100, errorCount: 7, clientErrorCount: 3, rateLimitedCount: 1 });
    expect(f.errorRate).toBe(7);
    expect(f.averageResponseTime).toBe(17.7);
    // The median is in the 2–3 ms bucket, the p95 and p99 in the 128–192 ms one (capped by the max).
    expect(f.p50).toBeGreaterThan(2);
    expect(f.p50).toBeLessThanOrEqual(3);
    expect(f.p95).toBeGreaterThan(128);
    expect(f.p99).toBeGreaterThanOrEqual(f.p95!);
    expect(f.p99).toBeLessThanOrEqual(150);
  });
});
