import type { ColumnType, Generated } from 'kysely';

export interface JobTable {
  id: Generated<number>;
  kind: string;
  /** queued | running | succeeded | failed | cancelled | interrupted */
  state: string;
  title: string;
  phase: string | null;
  processed: Generated<number>;
  total: number | null;
  /** JSON object of named counts, e.g. {"imported":10,"skipped":2,"errors":1}. */
  counts: string | null;
  /** JSON array of {row, message}. */
  errors: string | null;
  /** JSON: the job's answer when it succeeded. */
  result: string | null;
  /** Why it failed, was cancelled or interrupted. */
  message: string | null;
  /** JSON input of a queued job any process may run. */
  input: string | null;
  started_by: string | null;
  /** The process running it (see features/jobs/job-runner.service.ts). */
  owner: string | null;
  cancel_requested: Generated<number>;
  /** Bumped on every change: the events stream sends a job when its version moves. */
  version: Generated<number>;
  created_at: number;
  started_at: number | null;
  updated_at: number;
  finished_at: number | null;
  heartbeat_at: number | null;
  /** 1: a later start queues it again instead of ending it interrupted (migration 0028). */
  resumable: Generated<number>;
}

export interface LockTable {
  name: string;
  owner: string;
  expires_at: number;
}

export interface NotificationTable {
  id: Generated<number>;
  at: number;
  level: string;
  title: string;
  message: string;
  job_id: number | null;
  /** The system alert it announces (migration 0027): shown in the bell only while that is open. */
  alert_id: ColumnType<number | null, number | null | undefined, number | null>;
}

export interface JobTables {
  jobs: JobTable;
  locks: LockTable;
  notifications: NotificationTable;
}
