import { FINISHED_JOB_STATES } from '@mailroom/contract/jobs';
import { DEPLOY_LOG_COUNT, webRoutes } from '@mailroom/contract/web';
import { useEffect, useState } from 'react';
import { apiCall, errorMessage } from '../../api/client.ts';
import { subscribeServerEvents } from '../../api/job-events.ts';
import {
  EMPTY_DEPLOY_LOG,
  followDeployLog,
  type DeployLogSource,
  type DeployLogState,
} from './deploy-log-follower.ts';

function sourceFor(name: string): DeployLogSource {
  return {
    read: (query) => apiCall(webRoutes.appDeployLog, { params: { name }, query }),
    subscribe: (h) =>
      subscribeServerEvents({
        appLog: h.lines,
        job: (j) =>
          h.job(j.id, {
            lastStored: j.counts[DEPLOY_LOG_COUNT],
            ended: FINISHED_JOB_STATES.includes(j.state),
          }),
        ready: h.ready,
      }),
  };
}

/**
 * The live deploy log of an application's job (its latest when `jobId` is absent): every line from
 * the first, then the new ones each time the job's event says more are stored, by sequence number.
 */
export function useAppDeployLog(name: string | null, jobId: number | undefined) {
  const [log, setLog] = useState<DeployLogState>(EMPTY_DEPLOY_LOG);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    setLog(EMPTY_DEPLOY_LOG);
    setError(null);
    if (name === null) return;
    return followDeployLog(sourceFor(name), {
      name,
      jobId,
      onChange: (s) => {
        setError(null);
        setLog(s);
      },
      onError: (err) => setError(errorMessage(err)),
    });
  }, [name, jobId]);
  return { log, error };
}
