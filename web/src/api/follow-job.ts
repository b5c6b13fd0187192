import { FINISHED_JOB_STATES, type Job, type JobEvent, jobRoutes } from '@mailroom/contract/jobs';
import { apiCall } from './client.ts';
import { subscribeServerEvents } from './job-events.ts';

/** While the stream is quiet, the job is also read directly this often (missed events, proxies). */
const SAFETY_POLL_MS = 3000;

const finished = (j: JobEvent) => FINISHED_JOB_STATES.includes(j.state);

/**
 * Follows a job until it ends: progress from the events stream (`onProgress` on every change),
 * then the whole job (result, errors) from GET /api/jobs/:id.
 */
export function followJob(
  jobId: number,
  onProgress: (j: JobEvent) => void,
  signal?: AbortSignal,
): Promise<Job> {
  return new Promise<Job>((resolve, reject) => {
    let done = false;
    let last = 0;
    const finish = (err: unknown, job?: Job) => {
      if (done) return;
      done = true;
      unsubscribe();
      clearInterval(timer);
      if (job) resolve(job);
      else reject(err instanceof Error ? err : new Error(String(err)));
    };
    const check = () => {
      apiCall(jobRoutes.get, { params: { id: jobId } }).then(
        (j) => {
          if (done) return;
          onProgress(j);
          if (finished(j)) finish(null, j);
        },
        (err: unknown) => finish(err),
      );
    };
    const unsubscribe = subscribeServerEvents({
      job: (j) => {
        if (j.id !== jobId || done) return;
        last = Date.now();
        onProgress(j);
        if (finished(j)) check();
      },
      ready: check,
    });
    const timer = setInterval(() => {
      if (Date.now() - last >= SAFETY_POLL_MS) check();
    }, SAFETY_POLL_MS);
    signal?.addEventListener('abort', () => finish(signal.reason));
    check();
  });
}

export async function cancelJob(jobId: number): Promise<void> {
  await apiCall(jobRoutes.cancel, { params: { id: jobId } });
}
