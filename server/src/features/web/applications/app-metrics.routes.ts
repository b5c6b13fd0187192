import { appMetricsRoutes } from '@mailroom/contract/web/app-metrics';
import type { FastifyInstance } from 'fastify';
import { registerRoute } from '../../../http/register-route.ts';
import type { AppObserver } from './app-metrics.service.ts';

/** HTTP only: an application's latest Monitoring Endpoint reading. */
export function registerAppMetricsRoutes(app: FastifyInstance, observer: AppObserver): void {
  registerRoute(app, appMetricsRoutes.get, async ({ params }) => observer.metrics(params.name));
}
