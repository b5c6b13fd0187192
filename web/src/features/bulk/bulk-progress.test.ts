import type { BulkRun, RunsAnswer } from '@mailroom/contract/bulk';
import type { JobEvent } from '@mailroom/contract/jobs';
import { describe, expect, it } from 'vitest';
import { runsWithJobProgress, withJobProgress } from './bulk-progress.ts';

const run = (over: Partial<BulkRun> = {}): BulkRun =>
  ({
    id: 7,
    state: 'running',
    jobId: 42,
    counts: { total: 1000, succeeded: 100, failed: 0, notProcessed: 0, pending: 895, skipped: 5 },
    progress: 10.5,
    throughput: 50,
    estimatedTimeRemaining: 17_900,
    currentItemName: 'a100@example.com',
    ...over,
  }) as BulkRun;

const job = (over: Partial<JobEvent> = {}): JobEvent =>
  ({
    id: 42,
    kind: 'bulk.run',
    state: 'running',
    processed: 505,
    total: 1000,
    phase: 'Batch 6: a500@example.com',
    counts: { succeeded: 497, failed: 3, skipped: 5, notProcessed: 0 },
    ...over,
  }) as JobEvent;

describe('a bulk run moved on by its job’s progress event', () => {
  it('takes the ledger counts, progress, item in hand and time left from the event', () => {
    const r = withJobProgress(run(), job());
    expect(r.counts).toEqual({
      total: 1000,
      succeeded: 497,
      failed: 3,
      skipped: 5,
      notProcessed: 0,
      pending: 495,
    });
    expect(r.progress).toBe(50.5);
    expect(r.currentItemName).toBe('a500@example.com');
    // 495 left at the last measured 50 items/s.
    expect(r.estimatedTimeRemaining).toBe(9900);
  });

  it('keeps "—" for the time left until a throughput is measured', () => {
    expect(withJobProgress(run({ throughput: null }), job()).estimatedTimeRemaining).toBeNull();
  });

  it('leaves other runs, ended runs and ended jobs alone (their end is read from the server)', () => {
    const other = run({ jobId: 41 });
    expect(withJobProgress(other, job())).toBe(other);
    const ended = run({ state: 'completed' });
    expect(withJobProgress(ended, job())).toBe(ended);
    const r = run();
    expect(withJobProgress(r, job({ state: 'succeeded' }))).toBe(r);
  });

  it('moves only the matching run of the active list', () => {
    const answer = { active: [run(), run({ id: 8, jobId: 43 })], history: [] } as RunsAnswer;
    const next = runsWithJobProgress(answer, job());
    expect(next.active[0]!.counts.succeeded).toBe(497);
    expect(next.active[1]).toBe(answer.active[1]);
    expect(runsWithJobProgress(answer, job({ id: 99 }))).toBe(answer);
  });
});
