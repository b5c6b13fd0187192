import type { Config } from './config.ts';
import type { DatabaseHandle } from './db/database.ts';
import type { Host } from './host/host.ts';

/** What every feature is given: configuration, the database, and the host boundary. */
export interface AppDeps {
  config: Config;
  database: DatabaseHandle;
  host: Host;
}
