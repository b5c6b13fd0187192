import type { Job } from '@mailroom/contract/jobs';
import type { TestContext } from './harness.ts';

/** Job-runner timings for tests that wait on jobs: beats and polls every 50 ms. */
export const FAST_JOBS = { heartbeatMs: 50, persistMs: 20, pollMs: 50, staleMs: 5000 };

/** Polls `GET /api/jobs/:id` until the job has ended (or the answer is not a job), up to 2 minutes. */
export async function waitJob(t: TestContext, id: number): Promise<Job> {
  for (let i = 0; i < 2400; i++) {
    const job = (await t.call({ url: `/api/jobs/${id}` })).json<Job>();
    if (!['queued', 'running'].includes(job.state)) return job;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`job ${id} did not finish`);
}
