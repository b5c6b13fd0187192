import type { FastifyInstance } from 'fastify';
import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/** Request counts and durations by route and status, in Prometheus format at /metrics. */
export function installMetrics(app: FastifyInstance): Registry {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const requests = new Counter({
    name: 'mailroom_http_requests_total',
    help: 'HTTP requests by method, route and status',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [registry],
  });
  const duration = new Histogram({
    name: 'mailroom_http_request_duration_seconds',
    help: 'HTTP request duration by method, route and status',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });

  // prom-client hashes the label object on every call; the label sets are few, so keep their
  // children (a small read is cheap enough for that hashing to show in a profile).
  const children = new Map<string, { count: { inc(): void }; time: { observe(v: number): void } }>();
  app.addHook('onResponse', (request, reply, done) => {
    const route = request.routeOptions.url ?? 'unmatched';
    const key = `${request.method} ${reply.statusCode} ${route}`;
    let child = children.get(key);
    if (!child) {
      const labels = { method: request.method, route, status: String(reply.statusCode) };
      child = { count: requests.labels(labels), time: duration.labels(labels) };
      children.set(key, child);
    }
    child.count.inc();
    child.time.observe(reply.elapsedTime / 1000);
    done();
  });

  app.get('/metrics', { config: { public: true }, schema: { hide: true } }, async (_req, reply) => {
    void reply.header('content-type', registry.contentType);
    return registry.metrics();
  });
  return registry;
}
