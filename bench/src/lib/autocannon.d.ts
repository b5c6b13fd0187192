// autocannon ships no types; this declares the part of its API the benches use.
declare module 'autocannon' {
  interface Percentiles {
    average: number;
    mean: number;
    min: number;
    max: number;
    p50: number;
    p90: number;
    p99: number;
    total: number;
  }
  interface Options {
    url: string;
    connections?: number;
    pipelining?: number;
    duration?: number;
    amount?: number;
    method?: string;
    headers?: Record<string, string>;
    body?: string;
    warmup?: { connections?: number; duration?: number };
    timeout?: number;
    /** A sequence each connection sends in turn, looping. */
    requests?: { method?: string; path?: string; headers?: Record<string, string> }[];
  }
  interface Result {
    requests: Percentiles & { sent: number };
    latency: Percentiles;
    throughput: Percentiles;
    errors: number;
    timeouts: number;
    non2xx: number;
    '2xx': number;
    duration: number;
    statusCodeStats: Record<string, { count: number }>;
  }
  function autocannon(opts: Options): Promise<Result>;
  export default autocannon;
}
