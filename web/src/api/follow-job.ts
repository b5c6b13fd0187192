import { FINISHED_JOB_STATES, type Job, type JobEvent, jobRoutes } from '@mailroom/contract/jobs';
import { apiCall } from './client.ts';
import { subscribeServerEvents } from './job-events.ts';

/** How long after its start a job's own end notification is not toasted (the page said it). */
const OWN_TOAST_MS = 15 * 60_000;
const ownToasts = new Map<number, number>();

/**
 * The page following this job shows its end itself (a toast of its own): the server's
 * notification of the same end then goes to the bell only, so one toast says it (issue 22).
 */
export function toastsItsOwnEnd(jobId: number): void {
  const now = Date.now();
  for (const [id, at] of ownToasts) if (now - at > OWN_TOAST_MS) ownToasts.delete(id);
  ownToasts.set(jobId, now);
}

/** Whether a page already toasts this job's end. */
export function endToastedByPage(jobId: number | null): boolean {
  if (jobId === null) return false;
  const at = ownToasts.get(jobId);
  return at !== undefined && Date.now() - at <= OWN_TOAST_MS;
}

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
