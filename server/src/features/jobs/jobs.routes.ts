import { jobRoutes } from '@mailroom/contract/jobs';
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../app-deps.ts';
import { registerRoute } from '../../http/register-route.ts';
import type { JobRunner } from './job-runner.ts';
import { getJob, listJobs } from './jobs.service.ts';

export function registerJobs(app: FastifyInstance, deps: AppDeps, runner: JobRunner): void {
  const db = deps.database.db;
  registerRoute(app, jobRoutes.list, async ({ query }) => listJobs(db, query));
  registerRoute(app, jobRoutes.get, async ({ params }) => getJob(db, params.id));
  registerRoute(app, jobRoutes.cancel, async ({ params, request }) => {
    request.auditTarget = `job ${params.id}`;
    return runner.cancel(params.id);
  });
}
