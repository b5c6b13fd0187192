import { apiMonitoringRoutes as r } from '@mailroom/contract/api-monitoring';
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../app-deps.ts';
import { registerRoute } from '../../http/register-route.ts';
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
}
