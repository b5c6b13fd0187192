import { jobRoutes } from '@mailroom/contract/jobs';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppDeps } from '../../app-deps.ts';
import { isFullAdmin } from '../../http/access-scope.ts';
import { registerRoute } from '../../http/register-route.ts';
import type { JobRunner } from './job-runner.service.ts';
import { listJobs } from './job.repository.ts';
import { getJob } from './jobs.service.ts';

export function registerJobs(app: FastifyInstance, deps: AppDeps, runner: JobRunner): void {
  const db = deps.database.db;
  // Administrators see every job; any other account only the jobs it started.
  const own = (admin: FastifyRequest['admin']) => (isFullAdmin(admin) ? null : (admin?.email ?? ''));
  registerRoute(app, jobRoutes.list, async ({ query, request }) => listJobs(db, query, own(request.admin)));
  registerRoute(app, jobRoutes.get, async ({ params, request }) => getJob(db, params.id, own(request.admin)));
  registerRoute(app, jobRoutes.cancel, async ({ params, request }) => {
    request.auditTarget = `job ${params.id}`;
    await getJob(db, params.id, own(request.admin));
    return runner.cancel(params.id);
  });
}
