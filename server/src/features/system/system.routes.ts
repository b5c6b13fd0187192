import { systemRoutes } from '@mailroom/contract/system';
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../app-deps.ts';
import { registerRoute } from '../../http/register-route.ts';
import { readMachineStatus } from './system-status.service.ts';

export function registerSystem(app: FastifyInstance, deps: AppDeps): void {
  registerRoute(app, systemRoutes.status, async () => readMachineStatus(deps.config.dataDir));
}
