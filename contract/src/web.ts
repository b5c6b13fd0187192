/**
 * Web hosting (issue 19): the catalogue of the area. Schemas live by entity in `web/vhosts.ts`,
 * `web/settings.ts` and `web/stats.ts`; `web/fields.ts` holds the field helpers.
 */
import { appAutoDeployRoutes } from './web/app-auto-deploy.ts';
import { appMetricsRoutes } from './web/app-metrics.ts';
import { webAppRoutes } from './web/applications.ts';
import { webSettingsRoutes } from './web/settings.ts';
import { webSslHealthRoutes } from './web/ssl-health.ts';
import { webSslMetricsRoutes } from './web/ssl-metrics.ts';
import { webStatsRoutes } from './web/stats.ts';
import { webVhostRoutes } from './web/vhosts.ts';

export * from './web/app-auto-deploy.ts';
export * from './web/app-metrics.ts';
export * from './web/applications.ts';
export * from './web/fields.ts';
export * from './web/settings.ts';
export * from './web/ssl-health.ts';
export * from './web/ssl-metrics.ts';
export * from './web/stats.ts';
export * from './web/vhosts.ts';

export const webRoutes = {
  ...webVhostRoutes,
  settings: webSettingsRoutes.get,
  saveSettings: webSettingsRoutes.save,
  resetSettings: webSettingsRoutes.reset,
  dashboard: webStatsRoutes.dashboard,
  capabilities: webStatsRoutes.capabilities,
  sslHealth: webSslHealthRoutes.sslHealth,
  sslMetrics: webSslMetricsRoutes.sslMetrics,
  apps: webAppRoutes.list,
  appCapabilities: webAppRoutes.capabilities,
  app: webAppRoutes.get,
  createApp: webAppRoutes.create,
  updateApp: webAppRoutes.update,
  removeApp: webAppRoutes.remove,
  deployApp: webAppRoutes.deploy,
  rollbackApp: webAppRoutes.rollback,
  startApp: webAppRoutes.start,
  stopApp: webAppRoutes.stop,
  restartApp: webAppRoutes.restart,
  toggleApp: webAppRoutes.toggle,
  appReleases: webAppRoutes.releases,
  appRelease: webAppRoutes.release,
  appDeployLog: webAppRoutes.deployLog,
  appAutoDeploy: appAutoDeployRoutes.info,
  rotateAppWebhookSecret: appAutoDeployRoutes.rotateSecret,
  checkAppRemote: appAutoDeployRoutes.check,
  appWebhook: appAutoDeployRoutes.deliver,
  appMetrics: appMetricsRoutes.get,
};
