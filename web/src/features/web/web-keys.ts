import type { AppListQuery, VhostListQuery } from '@mailroom/contract/web';

/** The one query-key factory of the web area; invalidate only through it. */
export const webKeys = {
  all: ['web'] as const,
  dashboard: () => ['web', 'dashboard'] as const,
  capabilities: () => ['web', 'capabilities'] as const,
  vhosts: () => ['web', 'vhosts'] as const,
  vhostList: (q: VhostListQuery) => ['web', 'vhosts', q] as const,
  settings: () => ['web', 'settings'] as const,
  /** The SSL area's certificates, offered by the virtual host form's picker. */
  certificates: () => ['web', 'certificates'] as const,
  /** Web applications (issue 20): lists, one application, its releases and deploy log. */
  apps: () => ['web', 'apps'] as const,
  appList: (q: AppListQuery) => ['web', 'apps', 'list', q] as const,
  app: (name: string) => ['web', 'apps', 'one', name] as const,
  appReleases: (name: string) => ['web', 'apps', 'releases', name] as const,
  /** One page of a release's stored build log (its job's numbered lines after `after`). */
  appReleaseLog: (name: string, jobId: number, after: number) =>
    ['web', 'apps', 'release-log', name, jobId, after] as const,
  appCapabilities: () => ['web', 'app-capabilities'] as const,
  /** Auto deploy of one application: webhook path, secret set or not, last check (never the secret). */
  appAutoDeploy: (name: string) => ['web', 'apps', 'auto-deploy', name] as const,
  /** The latest reading of an application's Monitoring Endpoint. */
  appMetrics: (name: string) => ['web', 'apps', 'metrics', name] as const,
};
