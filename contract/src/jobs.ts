import { z } from 'zod';
import { defineRoute } from './route.ts';
import { queryInt } from './validators.ts';

/** A job's life: queued → running → one of the four ends. */
export const JOB_STATES = ['queued', 'running', 'succeeded', 'failed', 'cancelled', 'interrupted'] as const;
export type JobState = (typeof JOB_STATES)[number];
export const FINISHED_JOB_STATES: readonly JobState[] = ['succeeded', 'failed', 'cancelled', 'interrupted'];

export const JobRowError = z.object({ row: z.number(), message: z.string() });

export const Job = z.object({
  id: z.number(),
  kind: z.string(),
  state: z.enum(JOB_STATES),
  title: z.string(),
  /** What it is doing now, e.g. "Checking rows". */
  phase: z.string().nullable(),
  /** Units done (rows) and the whole (null while unknown). */
  processed: z.number(),
  total: z.number().nullable(),
  /** Named counts, e.g. imported/skipped/errors. */
  counts: z.record(z.string(), z.number()),
  /** Refused rows (the first 1000). */
  errors: z.array(JobRowError),
  /** The job's answer once it succeeded (for an import: the synchronous import's answer). */
  result: z.unknown().nullable(),
  /** Why it failed, was cancelled or interrupted. */
  message: z.string().nullable(),
  startedBy: z.string().nullable(),
  cancelRequested: z.boolean(),
  createdAt: z.string(),
  startedAt: z.string().nullable(),
  updatedAt: z.string(),
  finishedAt: z.string().nullable(),
});
export type Job = z.infer<typeof Job>;

/** 202 answer of a call that started a job: follow it on /api/events or GET /api/jobs/:id. */
export const JobAccepted = z.object({
  jobId: z.number(),
  state: z.enum(JOB_STATES),
  message: z.string(),
});
export type JobAccepted = z.infer<typeof JobAccepted>;

export const JobListQuery = z.object({
  state: z.enum(JOB_STATES).optional(),
  kind: z.string().max(100).optional(),
  limit: z.coerce.number().int().min(1).max(200).optional(),
});

/** Strict like every number of the API: "0x10", "" or "1e3" is not a job id. */
export const JobParams = z.object({ id: queryInt(1, 2 ** 31 - 1, 'Job id') });

/** Jobs of these kinds are started by the imports above `JOB_IMPORT_ROWS` rows. */
export const JOB_KINDS = {
  aliasImport: 'mail.alias.import',
  recordImport: 'dns.record.import',
  mailboxImport: 'mail.mailbox.import',
} as const;
/** Imports with more data rows than this run as a job (202 + job id); smaller ones answer at once. */
export const JOB_IMPORT_ROWS = 2000;
/** The mailbox bulk create hashes every password (argon2, ~50 ms a core): a job above this. */
export const JOB_MAILBOX_IMPORT_ROWS = 50;

// ---------- the events stream ----------

/** `GET /api/events`: one Server-Sent Events stream per console (session cookie or bearer). */
export const EVENTS_PATH = '/api/events';
/** SSE event names on the stream. */
export const EVENT_NAMES = { job: 'job', notification: 'notification', ready: 'ready' } as const;

export const NotificationEvent = z.object({
  id: z.number(),
  at: z.string(),
  level: z.enum(['info', 'success', 'warning', 'error']),
  title: z.string(),
  message: z.string(),
  jobId: z.number().nullable(),
});
export type NotificationEvent = z.infer<typeof NotificationEvent>;

/** `event: job` data: the job without its result and error list (fetch GET /api/jobs/:id for those). */
export const JobEvent = Job.omit({ result: true, errors: true });
export type JobEvent = z.infer<typeof JobEvent>;

const tags = ['jobs'];

export const jobRoutes = {
  list: defineRoute({
    method: 'GET',
    path: 'jobs',
    summary: 'Recent jobs, newest first',
    tags,
    query: JobListQuery,
    response: z.array(Job),
    access: 'self',
  }),
  get: defineRoute({
    method: 'GET',
    path: 'jobs/:id',
    summary: 'One job with its progress, counts, errors and result',
    tags,
    params: JobParams,
    response: Job,
    access: 'self',
  }),
  cancel: defineRoute({
    method: 'POST',
    path: 'jobs/:id/cancel',
    summary: 'Ask a queued or running job to stop (it ends as cancelled; nothing it wrote is kept)',
    tags,
    params: JobParams,
    response: Job,
    audit: 'jobs.cancel',
    access: 'self',
  }),
};
