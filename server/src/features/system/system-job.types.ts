import type { AppDeps } from '../../app-deps.ts';

/** The job runner's shapes as this area uses them (through AppDeps: features do not import each other). */
export type Jobs = NonNullable<AppDeps['jobs']>;
export type JobHandler = Parameters<Jobs['register']>[1];
export type JobContext = Parameters<JobHandler>[1];
export type JobOutcome = Awaited<ReturnType<JobHandler>>;
