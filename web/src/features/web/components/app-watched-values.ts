import type { AppFormValues } from '@mailroom/contract/web';

/** The values the sections' own state depends on; the form is uncontrolled, the parent watches these. */
export type WatchedAppValues = Pick<
  AppFormValues,
  | 'type'
  | 'sslEnabled'
  | 'enableAutoDeploy'
  | 'enableLogging'
  | 'enableMonitoring'
  | 'enableHealthChecks'
  | 'enableCaching'
  | 'enableCompression'
  | 'enableRateLimiting'
  | 'enableAccessControl'
  | 'enableScaling'
  | 'enableMaintenanceMode'
  | 'enableBackup'
  | 'enableGracefulShutdown'
>;

export const watchedAppValues = (v: AppFormValues): WatchedAppValues => ({
  type: v.type,
  sslEnabled: v.sslEnabled,
  enableAutoDeploy: v.enableAutoDeploy,
  enableLogging: v.enableLogging,
  enableMonitoring: v.enableMonitoring,
  enableHealthChecks: v.enableHealthChecks,
  enableCaching: v.enableCaching,
  enableCompression: v.enableCompression,
  enableRateLimiting: v.enableRateLimiting,
  enableAccessControl: v.enableAccessControl,
  enableScaling: v.enableScaling,
  enableMaintenanceMode: v.enableMaintenanceMode,
  enableBackup: v.enableBackup,
  enableGracefulShutdown: v.enableGracefulShutdown,
});
