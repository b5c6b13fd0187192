import autocannon from 'autocannon';

export interface LoadResult {
  rps: number;
  p50ms: number;
  p99ms: number;
  requests: number;
}

export interface LoadOptions {
  url: string;
  headers?: Record<string, string>;
  /** Paths each connection asks in turn, round and round (instead of the URL's own path). */
  paths?: string[];
  connections?: number;
  seconds?: number;
  warmupSeconds?: number;
}

/**
 * Drives a listening server with autocannon (keep-alive, no pipelining) and answers the mean
 * requests per second. Any non-2xx answer or socket error fails the run: a fast 401 is not a result.
 */
export async function measureLoad(opts: LoadOptions): Promise<LoadResult> {
  const connections = opts.connections ?? 10;
  const result = await autocannon({
    url: opts.url,
    headers: opts.headers ?? {},
    ...(opts.paths ? { requests: opts.paths.map((p) => ({ method: 'GET', path: p })) } : {}),
    connections,
    pipelining: 1,
    duration: opts.seconds ?? 8,
    warmup: { connections, duration: opts.warmupSeconds ?? 2 },
    timeout: 10,
  });
  if (result.non2xx > 0 || result.errors > 0 || result.timeouts > 0) {
    const codes = Object.entries(result.statusCodeStats)
      .map(([code, s]) => `${code}×${s.count}`)
      .join(', ');
    throw new Error(
      `${opts.url}: ${result.non2xx} non-2xx answers (${codes}), ${result.errors} errors, ${result.timeouts} timeouts`,
    );
  }
  return {
    rps: result.requests.average,
    p50ms: result.latency.p50,
    p99ms: result.latency.p99,
    requests: result['2xx'],
  };
}
