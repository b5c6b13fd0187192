import type { JobEvent } from '@mailroom/contract/jobs';
import type { JobRow } from './job.repository.ts';

/** The job runner's vocabulary: what a job's work is given and returns, and the runner's tuning. */

export interface JobProgress {
  processed?: number;
  total?: number | null;
  phase?: string;
  counts?: Record<string, number>;
}

/** What a job's work is given. */
export interface JobContext {
  readonly jobId: number;
  /** Aborted when the job is cancelled or the server stops. */
  readonly signal: AbortSignal;
  /** Records progress; the events stream shows it at once, the database within `persistMs`. */
  progress(p: JobProgress): void;
  /**
   * Lets the event loop breathe (other requests, the events stream, the cancel check) and throws
   * if the job was cancelled. Call it every few hundred units of work.
   */
  checkpoint(): Promise<void>;
}

export interface JobOutcome {
  result: unknown;
  counts?: Record<string, number>;
  errors?: { row: number; message: string }[];
  /** One line for the notification. */
  summary?: string;
}

export type JobWork = (ctx: JobContext) => Promise<JobOutcome>;

export interface RunnerTuning {
  /** How often a running job's heartbeat and cancel flag are written/read. Default 2 s. */
  heartbeatMs?: number;
  /** A running job whose heartbeat is older than this belongs to a dead process. Default 30 s. */
  staleMs?: number;
  /** Progress reaches the database at most this often. Default 250 ms. */
  persistMs?: number;
  /** How often the leader looks for queued jobs and stale ones. Default 1 s. */
  pollMs?: number;
}

export const NOTIFICATION_DAYS = 7;
export const RESUME_MESSAGE = 'The server running it stopped; it resumes where it stopped at the next start';

export class JobCancelled extends Error {
  constructor(readonly state: 'cancelled' | 'interrupted') {
    super(state === 'cancelled' ? 'Cancelled by an administrator' : 'Interrupted: the server stopped');
  }
}

/** A job running in this process. */
export interface LocalJob {
  row: JobRow;
  controller: AbortController;
  dirty: boolean;
  writing: Promise<void> | null;
  lastWrite: number;
  done: Promise<void>;
}

/** A job's change for the events stream (and for the version check across processes). */
export interface JobChange {
  job: JobEvent;
  version: number;
}

/** Why a job's work stopped: the abort's reason, else a cancel. */
export function reasonOf(signal: AbortSignal): Error {
  const r: unknown = signal.reason;
  return r instanceof Error ? r : new JobCancelled('cancelled');
}
