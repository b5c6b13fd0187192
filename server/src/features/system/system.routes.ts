import { systemRoutes } from '@mailroom/contract/system';
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../app-deps.ts';
import { observeDaemons } from '../../host/local-services.ts';
import { registerRoute } from '../../http/register-route.ts';
import { postfixQueueSize } from './live/queue-size.service.ts';
import { readMachineStatus } from './system-status.service.ts';

export function registerSystem(app: FastifyInstance, deps: AppDeps): void {
  const queueSize = postfixQueueSize(deps.host.path('/etc/postfix'));
  registerRoute(app, systemRoutes.status, async () =>
    readMachineStatus(deps.database.db, {
      dataDir: deps.config.dataDir,
      daemons: () => deps.services?.states() ?? observeDaemons(deps.host, deps.config),
      queueSize,
    }),
  );
}
