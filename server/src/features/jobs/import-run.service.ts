import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppDeps } from '../../app-deps.ts';
import type { JobContext } from './job-runner.service.ts';
import type { JobState } from '@mailroom/contract/jobs';
import { csvDataLines } from '../../lib/progress.ts';

/** What every CSV import answers: the counts, the refused rows, whether it was a check. */
export interface ImportAnswer {
  imported: number;
  skipped: number;
  errors: { row: number; message: string }[];
}

export interface ImportRun<A extends ImportAnswer> {
  /** The CSV body: more data lines than `jobAbove` run as a job (when the app has a job runner). */
  csv: string;
  jobAbove: number;
  /** The job's kind and title (what the notification and the Jobs page show). */
  kind: string;
  title: string;
  /** The import itself; given the job's context when it runs as one. */
  work: (job?: JobContext) => Promise<A>;
  /** The notification's line, e.g. "3 imported, 1 skipped". */
  summary: (a: A) => string;
  /** The audit of a job's start (its target is the job). */
  jobAudit: Record<string, unknown>;
  /** The audit of an import that ran inline. */
  inlineAudit: (a: A) => { target?: string; details: Record<string, unknown> };
}

/**
 * Runs a CSV import inline, or as a job when the file is large: then 202 with the job's id, the
 * progress on /api/events and the answer in the job's result.
 */
export async function runImport<A extends ImportAnswer>(
  deps: AppDeps,
  request: FastifyRequest,
  reply: FastifyReply,
  run: ImportRun<A>,
): Promise<A | { jobId: number; state: JobState; message: string }> {
  if (deps.jobs && csvDataLines(run.csv) > run.jobAbove) {
    const job = await deps.jobs.run(run.kind, run.title, request.admin?.email ?? null, async (ctx) => {
      const result = await run.work(ctx);
      return {
        result,
        counts: { imported: result.imported, skipped: result.skipped, errors: result.errors.length },
        errors: result.errors,
        summary: run.summary(result),
      };
    });
    request.auditTarget = `job ${job.id}`;
    request.auditDetails = { job: job.id, ...run.jobAudit };
    void reply.code(202);
    return { jobId: job.id, state: job.state, message: `Import started as job ${job.id}` };
  }
  const result = await run.work();
  const audit = run.inlineAudit(result);
  if (audit.target !== undefined) request.auditTarget = audit.target;
  request.auditDetails = audit.details;
  return result;
}
