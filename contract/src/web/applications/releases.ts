import { z } from 'zod';
import { queryInt } from '../../validators.ts';

// ---------- releases ----------

/** A release's life: building → starting → live → retired (or failed at any step). */
export const RELEASE_STATES = ['building', 'starting', 'live', 'retired', 'failed'] as const;
export type ReleaseState = (typeof RELEASE_STATES)[number];
export const RELEASE_TRIGGERS = ['deploy', 'rollback'] as const;
/** Release folders kept per application (the live one and the four before it); older are deleted. */
export const RELEASE_RETENTION = 5;

/** Seconds each step of a deploy took (null: not reached). */
export const DeployTimings = z.object({
  clone: z.number().nullable(),
  build: z.number().nullable(),
  start: z.number().nullable(),
  health: z.number().nullable(),
  switch: z.number().nullable(),
});
export type DeployTimings = z.infer<typeof DeployTimings>;

export const WebAppRelease = z.object({
  id: z.number(),
  applicationId: z.number(),
  /** 1, 2, 3… per application. */
  number: z.number(),
  state: z.enum(RELEASE_STATES),
  trigger: z.enum(RELEASE_TRIGGERS),
  /** For a rollback: the release it ran again. */
  sourceReleaseId: z.number().nullable(),
  /** What was asked (branch, tag or commit) and the commit it resolved to. */
  ref: z.string(),
  commit: z.string().nullable(),
  /** Release folder (deleted when pruned: then null). */
  path: z.string().nullable(),
  port: z.number().nullable(),
  /** sha256 of the virtual host file rendered for this release. */
  vhostConfigHash: z.string().nullable(),
  /** Names of the environment variables it ran with (the values are stored encrypted, never answered). */
  environmentVariableNames: z.array(z.string()),
  diskUsage: z.number(),
  timings: DeployTimings,
  message: z.string(),
  jobId: z.number().nullable(),
  startedBy: z.string().nullable(),
  createdAt: z.string(),
  finishedAt: z.string().nullable(),
});
export type WebAppRelease = z.infer<typeof WebAppRelease>;

/** One release with its build log. */
export const WebAppReleaseDetail = WebAppRelease.extend({ buildLog: z.string() });
export type WebAppReleaseDetail = z.infer<typeof WebAppReleaseDetail>;

// ---------- the deploy log ----------

export const DEPLOY_LOG_STREAMS = ['info', 'stdout', 'stderr'] as const;
export const DeployLogLine = z.object({
  /** 1, 2, 3… per job: ask for `after=<last seq seen>` to resume without losing lines. */
  seq: z.number(),
  at: z.string(),
  stream: z.enum(DEPLOY_LOG_STREAMS),
  text: z.string(),
});
export type DeployLogLine = z.infer<typeof DeployLogLine>;

export const DeployLogQuery = z.object({
  /** The deploy (or rollback) job; absent: the application's latest one. */
  jobId: queryInt(1, 2 ** 31 - 1, 'jobId').optional(),
  /** Lines with a seq above this (default 0: from the start). */
  after: queryInt(0, undefined, 'after').optional(),
  limit: queryInt(1, 5000, 'limit').optional(),
});
export type DeployLogQuery = z.input<typeof DeployLogQuery>;

export const DeployLog = z.object({
  jobId: z.number().nullable(),
  /** The job's state (null: no deploy yet). */
  state: z.string().nullable(),
  lines: z.array(DeployLogLine),
  /** Highest seq answered (pass it as `after` next time). */
  lastSeq: z.number(),
  /** The job has ended and every line has been answered. */
  done: z.boolean(),
});
export type DeployLog = z.infer<typeof DeployLog>;

/**
 * How a console follows a deploy live: the job's `event: job` on /api/events carries
 * `counts.logLines`, the seq of the last stored line; read GET …/deploy-log?after=<last seq you
 * have> whenever it moves (and once after a reload: nothing is lost, lines are numbered).
 * `app-log` (below) is reserved for pushing the lines themselves: the server does not send it yet.
 */
export const DEPLOY_LOG_COUNT = 'logLines';
/** Reserved (not sent yet): an SSE event carrying the new lines themselves. */
export const APP_LOG_EVENT = 'app-log';
export const AppLogEvent = z.object({
  applicationId: z.number(),
  name: z.string(),
  jobId: z.number(),
  lines: z.array(DeployLogLine),
});
export type AppLogEvent = z.infer<typeof AppLogEvent>;
