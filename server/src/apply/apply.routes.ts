import { applyRoutes } from '@mailroom/contract/apply';
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../app-deps.ts';
import { notFound } from '../http/errors.ts';
import { registerRoute } from '../http/register-route.ts';
import { listOutcomes } from './outcome.repository.ts';
import { retryFor } from './retry-registry.ts';

/** The apply outcomes of every target, and Retry for a change that is saved but not live. */
export function registerApply(app: FastifyInstance, deps: AppDeps): void {
  registerRoute(app, applyRoutes.list, async () => listOutcomes(deps.database.db));
  registerRoute(app, applyRoutes.retry, async ({ params }) => {
    const retry = retryFor(deps, params.target);
    if (!retry) throw notFound(`Unknown apply target: ${params.target}`);
    return retry();
  });
}
