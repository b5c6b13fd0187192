import type { Config } from './config.ts';
import type { DatabaseHandle } from './db/database.ts';
import type { Locks } from './db/locks.ts';
import type { JobRunner } from './features/jobs/job-runner.service.ts';
import type { MetricsSource } from './features/system/live/metrics-source.types.ts';
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
  /** The job runner (features/jobs/job-runner.service.ts); set by buildApp. */
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

/** A challenge TXT record Mailroom added to one of its zones. */
export interface ChallengeTxt {
  zone: string;
  /** Relative to the zone (`_acme-challenge`, `_acme-challenge.www`). */
  qname: string;
  value: string;
  id: number;
}

/**
 * What other areas (ACME DNS-01) may do with Mailroom's own zones: add a TXT record, see it served
 * by the name server, and remove it. Each change goes through the DNS apply pipeline (checked by
 * BIND, committed, reloaded), like an administrator's record edit. Made by the DNS area
 * (`dnsChallenges` in features/dns/dns-challenge.service.ts); declared here so the deps every
 * feature is given do not import a feature.
 */
export interface DnsChallenges {
  /** The primary zone holding `fqdn` (longest match), or null when Mailroom serves none. */
  zoneFor(fqdn: string): Promise<string | null>;
  addChallengeTxt(fqdn: string, value: string): Promise<ChallengeTxt>;
  removeChallengeTxt(record: ChallengeTxt): Promise<void>;
  /** Answers when the name server serves `value` at `fqdn`; throws after `timeoutMs`. */
  waitServed(fqdn: string, value: string, opts: { timeoutMs: number; signal?: AbortSignal }): Promise<void>;
}
