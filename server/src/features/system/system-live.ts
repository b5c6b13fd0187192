import type { FastifyInstance } from 'fastify';
import type { Registry } from 'prom-client';
import type { AppDeps } from '../../app-deps.ts';
import { ProcessTable } from '../../host/process-table.ts';
import { MetricsCollector } from './metrics-collector.ts';
import { registerHostGauges } from './prom-host-metrics.ts';
import { ServicesService } from './services.service.ts';
import { registerSystemLive } from './system-live.routes.ts';

/**
 * Starts the metrics collector (set as `deps.metrics` unless the caller gave one) and registers the
 * live system routes and the /metrics gauges. The collector stops when the app closes.
 */
export async function startSystemLive(app: FastifyInstance, deps: AppDeps, registry: Registry) {
  const processes = new ProcessTable();
  const services = new ServicesService(deps, new ProcessTable());
  const collector =
    deps.metrics instanceof MetricsCollector
      ? deps.metrics
      : new MetricsCollector({ diskPath: deps.config.dataDir, services: () => services.counts() });
  deps.metrics ??= collector;
  await collector.start();
  app.addHook('onClose', (_app, done) => {
    collector.close();
    done();
  });
  registerSystemLive(app, deps, { collector, processes, services });
  registerHostGauges(registry, collector, deps);
  return { collector };
}
