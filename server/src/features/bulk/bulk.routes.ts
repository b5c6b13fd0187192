import { Readable } from 'node:stream';
import { bulkRoutes } from '@mailroom/contract/bulk';
import type { FastifyInstance } from 'fastify';
import { registerRoute } from '../../http/register-route.ts';
import type { BulkCtx } from './bulk-context.types.ts';
import { makePlan, planRetry } from './bulk-plan.service.ts';
import { cancelRun, discardPlan, resultsCsv, startRun } from './bulk-run.service.ts';
import {
  clearRunHistory,
  getRun,
  listOperations,
  listRunItems,
  listRuns,
  requireRun,
  saveOperationPreference,
} from './bulk-view.service.ts';

const who = (req: { admin: { email: string } | null }) => req.admin?.email ?? 'unknown';

/** Bulk operations (spec §2.12, issue 21): HTTP only; the services do the work. */
export function registerBulk(app: FastifyInstance, b: BulkCtx): void {
  const r = bulkRoutes;
  registerRoute(app, r.operations, async ({ request }) => ({
    operations: await listOperations(b, who(request)),
  }));
  registerRoute(app, r.savePreference, async ({ params, body, request }) => {
    const { operation, before } = await saveOperationPreference(b, who(request), params.id, body);
    request.auditTarget = params.id;
    request.auditDetails = { before, after: { enabled: operation.enabled, config: operation.config } };
    return operation;
  });
  registerRoute(app, r.plan, async ({ body, request }) => {
    const answer = await makePlan(b, body, who(request));
    request.auditTarget = `bulk run ${answer.run.id}`;
    request.auditDetails = {
      operation: body.operation,
      target: answer.run.target,
      config: body.config,
      ...(answer.run.options ? { options: answer.run.options } : {}),
      plan: answer.run.plan,
    };
    return answer;
  });
  registerRoute(app, r.runs, async () => listRuns(b));
  registerRoute(app, r.run, async ({ params }) => getRun(b, params.id));
  registerRoute(app, r.items, async ({ params, query }) => listRunItems(b, params.id, query));
  registerRoute(app, r.results, async ({ params, reply }) => {
    await requireRun(b, params.id);
    return reply
      .header('content-type', 'text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="bulk-operation-${params.id}-results.csv"`)
      .send(Readable.from(resultsCsv(b, params.id))) as never;
  });
  registerRoute(app, r.start, async ({ params, body, request, reply }) => {
    const job = await startRun(b, params.id, body.confirm, who(request));
    const run = await getRun(b, params.id);
    request.auditTarget = `bulk run ${params.id}`;
    request.auditDetails = { operation: run.operation, config: run.config, plan: run.plan, job: job.id };
    void reply.code(202);
    return { jobId: job.id, state: job.state, message: `${run.name} started as job ${job.id}` };
  });
  registerRoute(app, r.cancel, async ({ params, request }) => {
    request.auditTarget = `bulk run ${params.id}`;
    return cancelRun(b, params.id);
  });
  registerRoute(app, r.discard, async ({ params, request }) => {
    request.auditTarget = `bulk run ${params.id}`;
    return discardPlan(b, params.id);
  });
  registerRoute(app, r.retry, async ({ params, request }) => {
    const answer = await planRetry(b, params.id, who(request));
    request.auditTarget = `bulk run ${answer.run.id}`;
    request.auditDetails = { retryOf: params.id, plan: answer.run.plan };
    return answer;
  });
  registerRoute(app, r.clearHistory, async ({ request }) => {
    const cleared = await clearRunHistory(b);
    request.auditDetails = { cleared };
    return { cleared };
  });
}
