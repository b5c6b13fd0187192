import type { JobAccepted, JobEvent } from '@mailroom/contract/jobs';
import { useCallback, useEffect, useRef, useState } from 'react';
import { ApiError } from './client.ts';
import { cancelJob, followJob } from './follow-job.ts';

const isAccepted = (r: unknown): r is JobAccepted =>
  typeof r === 'object' && r !== null && 'jobId' in r && typeof (r as JobAccepted).jobId === 'number';

/**
 * For calls that answer at once or, for large inputs, with 202 and a job: `settle(answer)`
 * returns the answer, following the job (its progress in `progress`) until it ends with its
 * result. A job that failed, was cancelled or interrupted throws with its message.
 */
export function useJobAnswer<T>() {
  const [progress, setProgress] = useState<JobEvent | null>(null);
  const abort = useRef<AbortController | null>(null);
  useEffect(() => () => abort.current?.abort(), []);

  const settle = useCallback(async (answer: T | JobAccepted): Promise<T> => {
    if (!isAccepted(answer)) return answer;
    abort.current?.abort();
    const ac = new AbortController();
    abort.current = ac;
    try {
      const job = await followJob(answer.jobId, setProgress, ac.signal);
      if (job.state !== 'succeeded')
        throw new ApiError({
          status: 200,
          code: `JOB_${job.state.toUpperCase()}`,
          message: job.message ?? `The job ended as ${job.state}.`,
        });
      return job.result as T;
    } finally {
      setProgress(null);
    }
  }, []);

  const cancel = useCallback(() => {
    if (progress) void cancelJob(progress.id).catch(() => undefined);
  }, [progress]);

  return { progress, settle, cancel };
}
