import type { Config } from './config.ts';
import type { DatabaseHandle } from './db/database.ts';
import type { Host } from './host/host.ts';
import type { ServiceControl } from './host/service-control.ts';

/** What every feature is given: configuration, the database, and the host boundary. */
export interface AppDeps {
  config: Config;
  database: DatabaseHandle;
  host: Host;
  /** Reloads (and in local mode runs) the daemons; absent: reloads as `host.reloadEnabled` says. */
  services?: ServiceControl;
}
