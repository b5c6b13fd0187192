import { apiKeyRoutes as k, apiMonitoringRoutes as r } from '@mailroom/contract/api-monitoring';
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../app-deps.ts';
import { registerRoute } from '../../http/register-route.ts';
import {
  createApiKey,
  listApiKeys,
  metricsAccess,
  revokeApiKey,
  saveMetricsAccess,
} from './api-key.service.ts';
import type { ApiMonitor } from './api-monitoring.module.ts';
import {
  clearCache,
  readCache,
  readRateLimit,
  readStats,
  saveCache,
  saveRateLimit,
} from './api-monitoring.service.ts';

/** The API Monitoring page (spec §2.13): statistics, the rate limit and the response cache. */
export function registerApiMonitoring(app: FastifyInstance, deps: AppDeps, monitor: ApiMonitor): void {
  const db = deps.database.db;
  registerRoute(app, r.stats, async ({ query }) => readStats(db, monitor, query.window ?? '1h'));
  registerRoute(app, r.rateLimit, async ({ request }) => readRateLimit(db, monitor, request.admin!));
  registerRoute(app, r.saveRateLimit, async ({ body, request }) => {
    const change = await saveRateLimit(db, monitor, body);
    request.auditTarget = 'rate-limit';
    request.auditDetails = change;
    return readRateLimit(db, monitor, request.admin!);
  });
  registerRoute(app, r.cache, async () => readCache(db, monitor));
  registerRoute(app, r.saveCache, async ({ body, request }) => {
    const change = await saveCache(db, monitor, body);
    request.auditTarget = 'cache';
    request.auditDetails = change;
    return readCache(db, monitor);
  });
  registerRoute(app, r.clearCache, async ({ request }) => {
    await clearCache(db, monitor);
    request.auditTarget = 'cache';
    return { cleared: true as const };
  });

  registerRoute(app, k.list, async ({ query }) => {
    // This process's latest counts first, like the statistics (the others flush every 2 s).
    await monitor.flush();
    return listApiKeys(db, query.window ?? '24h');
  });
  registerRoute(app, k.create, async ({ body, request }) => {
    const created = await createApiKey(db, body, request.admin!.email);
    // The audit line names the key and its scope, never the key itself.
    request.auditTarget = `api-key:${created.key.name}`;
    request.auditDetails = {
      access: created.key.access,
      areas: created.key.areas,
      domains: created.key.domains,
      allowedAddresses: created.key.allowedAddresses,
      expiresAt: created.key.expiresAt,
    };
    return created;
  });
  registerRoute(app, k.revoke, async ({ params, request }) => {
    const key = await revokeApiKey(db, params.id);
    request.auditTarget = `api-key:${key.name}`;
    return key;
  });
  registerRoute(app, k.metricsAccess, async () => metricsAccess(db));
  registerRoute(app, k.saveMetricsAccess, async ({ body, request }) => {
    const change = await saveMetricsAccess(db, body, (settings) => monitor.apply(settings));
    request.auditTarget = 'metrics';
    request.auditDetails = change;
    return change.after;
  });
}
