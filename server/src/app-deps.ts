import type { Config } from './config.ts';
import type { DatabaseHandle } from './db/database.ts';
import type { Locks } from './db/locks.ts';
import type { JobRunner } from './features/jobs/job-runner.ts';
import type { MetricsSource } from './features/system/metrics-source.ts';
import type { Host } from './host/host.ts';
import type { ServiceControl } from './host/service-control.ts';

/** What every feature is given: configuration, the database, and the host boundary. */
export interface AppDeps {
  config: Config;
  database: DatabaseHandle;
  host: Host;
  /** Reloads (and in local mode runs) the daemons; absent: reloads as `host.reloadEnabled` says. */
  services?: ServiceControl;
  /** Locks shared by every process on the database (db/locks.ts); buildApp makes them if absent. */
  locks?: Locks;
  /** The job runner (features/jobs/job-runner.ts); set by buildApp. */
  jobs?: JobRunner;
  /** The one metrics collector (features/system/metrics-collector.ts); set by buildApp. */
  metrics?: MetricsSource;
}
