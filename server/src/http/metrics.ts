import type { FastifyInstance } from 'fastify';
import { collectDefaultMetrics, Registry } from 'prom-client';

/**
 * Prometheus text at /metrics: the request counters and durations of every worker and instance
 * (`requests`, from the shared roll-ups of features/api-monitoring), then this process's own
 * metrics (process, host gauges).
 */
export function installMetrics(app: FastifyInstance, requests: () => Promise<string>): Registry {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  app.get('/metrics', { config: { public: true }, schema: { hide: true } }, async (_req, reply) => {
    void reply.header('content-type', registry.contentType);
    const [shared, own] = await Promise.all([requests(), registry.metrics()]);
    return shared + own;
  });
  return registry;
}
