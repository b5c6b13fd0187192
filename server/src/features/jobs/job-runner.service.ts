import { EventEmitter } from 'node:events';
import type { Job, JobState } from '@mailroom/contract/jobs';
import type { Kysely } from 'kysely';
import { type Locks, processOwner } from '../../db/locks.ts';
import type { Database } from '../../db/schema.ts';
import { AppError, conflict } from '../../http/errors.ts';
import { notify, purgeNotifications } from '../events/events.public.ts';
import {
  cancelQueuedJob,
  cancelRequested,
  claimNextJob,
  heartbeat,
  insertJob,
  MAX_JOB_ERRORS,
  type JobRow,
  readJob,
  requestCancel,
  sweepStale,
  toJob,
  toJobEvent,
} from './job.repository.ts';
import { finishJob, persistProgress } from './job-end.service.ts';
import {
  type JobChange,
  JobCancelled,
  type JobContext,
  type JobOutcome,
  type JobWork,
  type LocalJob,
  NOTIFICATION_DAYS,
  RESUME_MESSAGE,
  reasonOf,
  type RunnerTuning,
} from './job-runner.types.ts';

export {
  type JobChange,
  JobCancelled,
  type JobContext,
  type JobOutcome,
  type JobProgress,
  type JobWork,
  type RunnerTuning,
} from './job-runner.types.ts';

type Db = Kysely<Database>;

/**
 * Runs jobs in this process and keeps their rows current: progress, heartbeat, cancel (asked in
 * any process: a flag in the row), and their end. Queued jobs with a JSON input are picked up by
 * a process with a handler for their kind, one claim at a time under the `jobs.queue` lock;
 * running jobs of a process that died (stale heartbeat) are marked interrupted by the process
 * holding the `jobs.leader` leadership, and by every process as it starts. On close, this process's running jobs are
 * stopped and marked interrupted.
 */
export class JobRunner extends EventEmitter<{ change: [JobChange] }> {
  readonly owner = processOwner();
  private readonly local = new Map<number, LocalJob>();
  private readonly handlers = new Map<string, (input: unknown, ctx: JobContext) => Promise<JobOutcome>>();
  private readonly heartbeatMs: number;
  private readonly staleMs: number;
  private readonly persistMs: number;
  private readonly pollMs: number;
  private timer: NodeJS.Timeout | null = null;
  private leaderTimer: NodeJS.Timeout | null = null;
  private leadership: { release(): Promise<void>; signal: AbortSignal } | null = null;
  private closed = false;
  private ticking = false;
  private lastRecovery = 0;

  constructor(
    private readonly db: Db,
    private readonly locks: Locks,
    tuning: RunnerTuning = {},
  ) {
    super();
    this.heartbeatMs = tuning.heartbeatMs ?? 2000;
    this.staleMs = tuning.staleMs ?? 30_000;
    this.persistMs = tuning.persistMs ?? 250;
    this.pollMs = tuning.pollMs ?? 1000;
  }

  /** Marks dead processes' jobs interrupted, then starts the heartbeat and the queue watch. */
  async start(): Promise<void> {
    await this.recoverStale();
    this.timer = setInterval(() => void this.tick(), this.heartbeatMs);
    this.timer.unref();
    this.leaderTimer = setInterval(() => void this.lead(), this.pollMs);
    this.leaderTimer.unref();
  }

  /** Kinds that can be queued (their input is JSON in the row, so any process can run them). */
  register(kind: string, handler: (input: unknown, ctx: JobContext) => Promise<JobOutcome>): void {
    this.handlers.set(kind, handler);
  }

  /** Whether this process can run queued jobs of `kind`. */
  handles(kind: string): boolean {
    return this.handlers.has(kind);
  }

  /** Starts `work` now, in this process. */
  async run(kind: string, title: string, actor: string | null, work: JobWork): Promise<Job> {
    if (this.closed) throw conflict('The server is stopping; try again in a moment.');
    const now = Date.now();
    const row = await insertJob(this.db, {
      kind,
      title,
      state: 'running',
      started_by: actor,
      owner: this.owner,
      created_at: now,
      started_at: now,
      updated_at: now,
      heartbeat_at: now,
      version: 1,
    });
    this.launch(row, work);
    return toJob(row);
  }

  /** Queues a job any process may run (the queue leader picks it up within `pollMs`). */
  async enqueue(
    kind: string,
    title: string,
    actor: string | null,
    input: unknown,
    opts: {
      /**
       * A job whose work can pick up where it stopped (its handler keeps its own ledger): when its
       * process stops or dies it is queued again, and the next process to claim it resumes it,
       * instead of ending "interrupted".
       */
      resumable?: boolean;
    } = {},
  ): Promise<Job> {
    if (this.closed) throw conflict('The server is stopping; try again in a moment.');
    if (!this.handlers.has(kind)) throw new Error(`no handler for job kind ${kind}`);
    const now = Date.now();
    const row = await insertJob(this.db, {
      kind,
      title,
      state: 'queued',
      started_by: actor,
      input: JSON.stringify(input),
      created_at: now,
      updated_at: now,
      version: 1,
      resumable: opts.resumable ? 1 : 0,
    });
    this.changed(row);
    return toJob(row);
  }

  /** Asks a job to stop: a queued one ends at once, a running one at its next checkpoint. */
  async cancel(id: number): Promise<Job> {
    const now = Date.now();
    const local = this.local.get(id);
    // A local job that is finishing has its final state in memory before the map lets go of it.
    if (local && local.row.state !== 'running')
      throw conflict(`Job ${id} has already ended (${local.row.state}).`);
    if (local) {
      local.row = { ...local.row, cancel_requested: 1, version: local.row.version + 1, updated_at: now };
      local.dirty = true;
      this.changed(local.row);
      local.controller.abort(new JobCancelled('cancelled'));
      await this.persist(local, true);
      return toJob(local.row);
    }
    const row = await readJob(this.db, id);
    if (!row) throw new AppError(404, 'NOT_FOUND', `Job ${id} was not found.`);
    if (row.state === 'queued') {
      const ended = await cancelQueuedJob(this.db, id, now);
      if (ended) {
        this.changed(ended);
        return toJob(ended);
      }
    } else if (row.state === 'running') {
      const asked = await requestCancel(this.db, id, now);
      if (asked) {
        this.changed(asked);
        return toJob(asked);
      }
    }
    const after = await readJob(this.db, id);
    throw conflict(`Job ${id} has already ended (${after?.state ?? row.state}).`);
  }

  /** Jobs running in this process (for tests and the shutdown log). */
  get running(): number {
    return this.local.size;
  }

  /** Resolves when a local job has ended (immediately when it is not running here). */
  async settled(id: number): Promise<void> {
    await this.local.get(id)?.done;
  }

  /** Stops this process's jobs (they end as interrupted) and gives up the queue leadership. */
  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearInterval(this.timer);
    if (this.leaderTimer) clearInterval(this.leaderTimer);
    const pending = [...this.local.values()];
    for (const j of pending) j.controller.abort(new JobCancelled('interrupted'));
    await Promise.all(pending.map((j) => j.done));
    await this.leadership?.release();
    this.leadership = null;
  }

  // -------------------------------------------------------------------------------------------

  private changed(row: JobRow): void {
    this.emit('change', { job: toJobEvent(row), version: Number(row.version) });
  }

  private launch(row: JobRow, work: JobWork): void {
    const controller = new AbortController();
    let resolveDone!: () => void;
    const local: LocalJob = {
      row,
      controller,
      dirty: false,
      writing: null,
      lastWrite: Date.now(),
      done: new Promise<void>((r) => (resolveDone = r)),
    };
    this.local.set(Number(row.id), local);
    this.changed(row);
    let lastYield = Date.now();
    const ctx: JobContext = {
      jobId: Number(row.id),
      signal: controller.signal,
      progress: (p) => {
        const r = local.row;
        local.row = {
          ...r,
          processed: p.processed ?? r.processed,
          total: p.total === undefined ? r.total : p.total,
          phase: p.phase ?? r.phase,
          counts: p.counts ? JSON.stringify(p.counts) : r.counts,
          version: r.version + 1,
          updated_at: Date.now(),
        };
        local.dirty = true;
        this.changed(local.row);
        if (Date.now() - local.lastWrite >= this.persistMs) void this.persist(local);
      },
      checkpoint: async () => {
        // Yield about every 20 ms of work: enough for other requests, cheap for the job.
        if (Date.now() - lastYield >= 20) {
          await new Promise((r) => setImmediate(r));
          lastYield = Date.now();
        }
        if (controller.signal.aborted) throw reasonOf(controller.signal);
      },
    };
    void (async () => {
      let end: Partial<JobRow> & { state: JobState };
      try {
        const outcome = await work(ctx);
        if (controller.signal.aborted) throw reasonOf(controller.signal);
        const errors = outcome.errors ?? [];
        end = {
          state: 'succeeded',
          result: JSON.stringify(outcome.result ?? null),
          counts: outcome.counts ? JSON.stringify(outcome.counts) : local.row.counts,
          errors: JSON.stringify(errors.slice(0, MAX_JOB_ERRORS)),
          processed: local.row.total ?? local.row.processed,
          message: outcome.summary ?? null,
        };
      } catch (err) {
        const reason = controller.signal.aborted ? reasonOf(controller.signal) : err;
        if (reason instanceof JobCancelled) end = { state: reason.state, message: reason.message };
        else {
          const message = err instanceof Error ? err.message : String(err);
          const details = err instanceof AppError && Array.isArray(err.details) ? err.details : null;
          end = {
            state: 'failed',
            message,
            ...(details ? { errors: JSON.stringify(details.slice(0, MAX_JOB_ERRORS)) } : {}),
          };
        }
      }
      await this.finish(local, end).catch(() => undefined);
      this.local.delete(Number(row.id));
      resolveDone();
    })();
  }

  private async finish(local: LocalJob, end: Partial<JobRow> & { state: JobState }): Promise<void> {
    await finishJob(this.db, local, end, (row) => this.changed(row));
  }

  private async persist(local: LocalJob, force = false): Promise<void> {
    await persistProgress(this.db, local, force);
  }

  /** Heartbeat of this process's jobs, and cancel requests made in another process. */
  private async tick(): Promise<void> {
    if (this.ticking || this.local.size === 0) return;
    this.ticking = true;
    try {
      const ids = [...this.local.keys()];
      await heartbeat(this.db, ids, Date.now());
      const asked = await cancelRequested(this.db, ids);
      for (const id of asked) this.local.get(id)?.controller.abort(new JobCancelled('cancelled'));
      for (const j of this.local.values()) if (j.dirty) void this.persist(j);
    } catch {
      /* the next tick tries again */
    } finally {
      this.ticking = false;
    }
  }

  /**
   * Running jobs whose process stopped beating are marked interrupted (once, under a lock); the
   * resumable ones are queued again instead, for a process with their handler to resume.
   */
  async recoverStale(): Promise<number> {
    return this.locks.withLock('jobs.recover', async () => {
      const now = Date.now();
      const requeued = await sweepStale(this.db, this.owner, now - this.staleMs, now, true, RESUME_MESSAGE);
      for (const row of requeued) this.changed(row);
      const stale = await sweepStale(
        this.db,
        this.owner,
        now - this.staleMs,
        now,
        false,
        'Interrupted: the server running it stopped',
      );
      for (const row of stale) {
        this.changed(row);
        await notify(this.db, {
          level: 'warning',
          title: `${row.title}: interrupted`,
          message: row.message ?? '',
          jobId: row.id,
        });
      }
      return stale.length + requeued.length;
    });
  }

  /**
   * Every poll: the leader (one process) sweeps stale jobs now and then; any process with handlers
   * claims the oldest queued job it can run, under the `jobs.queue` lock (and a conditional
   * update, so a job is claimed once even if a lock were lost).
   */
  private async lead(): Promise<void> {
    if (this.closed) return;
    try {
      if (!this.leadership || this.leadership.signal.aborted) {
        this.leadership = await this.locks.tryLeader('jobs.leader');
      }
      if (this.leadership && Date.now() - this.lastRecovery >= this.staleMs / 3) {
        this.lastRecovery = Date.now();
        await this.recoverStale();
        // Notifications are for live consoles: a week is plenty.
        await purgeNotifications(this.db, Date.now() - NOTIFICATION_DAYS * 86_400_000);
      }
      if (this.handlers.size === 0) return;
      const claimed = await this.locks.withLock('jobs.queue', () => this.claimNext(), {
        waitMs: this.pollMs,
      });
      if (!claimed) return;
      const handler = this.handlers.get(claimed.kind)!;
      const input: unknown = claimed.input ? JSON.parse(claimed.input) : null;
      this.launch(claimed, (ctx) => handler(input, ctx));
    } catch {
      /* database busy or gone for a moment, or the lock held: the next poll tries again */
    }
  }

  private async claimNext(): Promise<JobRow | undefined> {
    return claimNextJob(this.db, [...this.handlers.keys()], this.owner, Date.now());
  }
}
