/**
 * Response times are kept as counts per bucket (upper bounds in milliseconds), so the roll-ups of
 * every worker, minute and route can be added up and the percentiles read from the sum.
 */
export const LATENCY_BOUNDS_MS = [
  0.25, 0.5, 1, 1.5, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64, 96, 128, 192, 256, 384, 512, 768, 1024, 1536,
  2048, 4096, 8192, 16384,
] as const;

/** One bucket per bound plus the last one (above the largest bound). */
export const LATENCY_BUCKETS = LATENCY_BOUNDS_MS.length + 1;

/** The bucket columns of the roll-up tables: h00 … h28. */
export const BUCKET_COLUMNS = Array.from(
  { length: LATENCY_BUCKETS },
  (_, i) => `h${String(i).padStart(2, '0')}`,
);

export function bucketOf(ms: number): number {
  // A binary search over 28 bounds; requests are recorded on the hot path.
  let lo = 0;
  let hi: number = LATENCY_BOUNDS_MS.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (ms <= LATENCY_BOUNDS_MS[mid]!) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/**
 * The q-quantile (0..1) of a histogram, interpolated linearly inside its bucket; the last bucket
 * answers the largest time seen (`maxMs`). Null when the histogram is empty.
 */
export function quantile(counts: readonly number[], q: number, maxMs: number): number | null {
  const total = counts.reduce((a, b) => a + b, 0);
  if (total === 0) return null;
  const rank = q * total;
  let seen = 0;
  for (let i = 0; i < counts.length; i++) {
    const c = counts[i] ?? 0;
    if (c === 0) continue;
    if (seen + c >= rank) {
      const lower = i === 0 ? 0 : LATENCY_BOUNDS_MS[i - 1]!;
      const upper = i < LATENCY_BOUNDS_MS.length ? Math.min(LATENCY_BOUNDS_MS[i]!, maxMs) : maxMs;
      const within = c === 0 ? 0 : (rank - seen) / c;
      return Math.max(lower, Math.min(upper, lower + (upper - lower) * within));
    }
    seen += c;
  }
  return maxMs;
}
