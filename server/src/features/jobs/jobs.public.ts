/** What the other features may call of the jobs area: run an import inline or as a job, ask for running jobs. */
export { type ImportAnswer, type ImportRun, runImport } from './import-run.service.ts';
export { hasActiveJob, lastFinishedId, latestSucceeded } from './job.repository.ts';
