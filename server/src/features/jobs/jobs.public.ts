/** What the other features may call of the jobs area: run an import inline or as a job. */
export { type ImportAnswer, type ImportRun, runImport } from './import-run.ts';
