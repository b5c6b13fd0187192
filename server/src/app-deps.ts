import type { Config } from './config.ts';
import type { DatabaseHandle } from './db/database.ts';
import type { Locks } from './db/locks.ts';
import type { DnsChallenges } from './features/dns/dns-challenge.service.ts';
import type { JobRunner } from './features/jobs/job-runner.ts';
import type { MetricsSource } from './features/system/metrics-source.ts';
import type { ApacheDaemon } from './host/apache-daemon.ts';
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
  /** Challenge TXT records in Mailroom's own zones (ACME DNS-01); set by buildApp from the DNS area. */
  dnsChallenges?: DnsChallenges;
  /** The one metrics collector (features/system); alerts read it. Absent: no CPU/memory/disk alerts. */
  metrics?: MetricsSource;
  /** Local mode as root: Apache run by Mailroom from the web area's files (main.ts makes it). */
  webDaemon?: ApacheDaemon;
  /** Milliseconds since the epoch for time-based codes (TOTP, lockouts); tests set it. Default Date.now. */
  clock?: () => number;
}
