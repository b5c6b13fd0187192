import type { FastifyInstance, FastifyRequest } from 'fastify';
import { unauthorized } from './errors.ts';
import { collectDefaultMetrics, Registry } from 'prom-client';

/**
 * Prometheus text at /metrics: the request counters and durations of every worker and instance
 * (`requests`, from the shared roll-ups of features/api-monitoring), then this process's own
 * metrics (process, host gauges).
 */
export function installMetrics(
  app: FastifyInstance,
  requests: () => Promise<string>,
  allowed: (request: FastifyRequest) => Promise<boolean> = async () => true,
): Registry {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  app.get('/metrics', { config: { public: true }, schema: { hide: true } }, async (request, reply) => {
    // Protected (API Monitoring): an allowed address, or a key with the metrics area.
    if (!(await allowed(request))) throw unauthorized();
    void reply.header('content-type', registry.contentType);
    const [shared, own] = await Promise.all([requests(), registry.metrics()]);
    return shared + own;
  });
  return registry;
}
