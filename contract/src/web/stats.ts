import { z } from 'zod';
import { defineRoute } from '../route.ts';
import { WebApplicationSummary } from './applications.ts';
import { PHP_VERSIONS, VirtualHost } from './vhosts.ts';

/** Spec 3 §3.1 web stats (every figure real: the database and Apache's own access log). */
export const WebStats = z.object({
  totalVirtualHosts: z.number(),
  activeVirtualHosts: z.number(),
  /** Web applications (issue 20): all of them, and those serving (status active). */
  totalWebApplications: z.number(),
  activeWebApplications: z.number(),
  totalDomains: z.number(),
  sslEnabledDomains: z.number(),
  /** Requests in the last 24 hours (all hosts). */
  totalTraffic: z.number(),
  /** ms, last 24 hours; null: no requests. */
  averageResponseTime: z.number().nullable(),
  /** Percent of 5xx answers in the last 24 hours; null: no requests. */
  errorRate: z.number().nullable(),
  /** Apache's uptime in seconds (its master process); null: Apache is not running. */
  uptime: z.number().nullable(),
});
export type WebStats = z.infer<typeof WebStats>;

/** Spec 3 §3.1 activity item (web): from the audit log and the apply outcomes. */
export const WEB_ACTIVITY_TYPES = ['deployment', 'ssl', 'configuration', 'error', 'other'] as const;
export const WebActivity = z.object({
  id: z.string(),
  type: z.enum(WEB_ACTIVITY_TYPES),
  description: z.string(),
  timestamp: z.string(),
  status: z.enum(['success', 'warning', 'error']),
  details: z.string(),
});
export type WebActivity = z.infer<typeof WebActivity>;

/** One line of Server Status: the real state of a program, never a fixed "Running". */
export const WEB_SERVICE_STATES = ['running', 'stopped', 'failed', 'not-installed', 'unmanaged'] as const;
export const WebServiceStatus = z.object({
  /** Web Server, PHP, Database, SSL/TLS (spec §2.1). */
  name: z.enum(['Web Server', 'PHP', 'Database', 'SSL/TLS']),
  state: z.enum(WEB_SERVICE_STATES),
  /** Shown beside the state: version, pid, why not running, how many certificates are served. */
  detail: z.string(),
  pid: z.number().nullable(),
  since: z.string().nullable(),
});
export type WebServiceStatus = z.infer<typeof WebServiceStatus>;
export const WEB_SERVICE_STATE_LABELS: Record<WebServiceStatus['state'], string> = {
  running: 'Running',
  stopped: 'Stopped',
  failed: 'Failed',
  'not-installed': 'Not installed',
  unmanaged: 'Not run by Mailroom',
};

/** The last apply of the web target (see GET apply). */
export const WebApplyState = z.object({
  state: z.enum(['applied', 'failed', 'refused', 'pending', 'never']),
  message: z.string(),
  at: z.string().nullable(),
});

export const WebDashboard = z.object({
  stats: WebStats,
  status: z.array(WebServiceStatus),
  /** The first virtual hosts by traffic (the dashboard table; the full list is GET web/vhosts). */
  virtualHosts: z.array(VirtualHost),
  /** The first web applications by name (the dashboard table; the full list is GET web/applications). */
  applications: z.array(WebApplicationSummary),
  activity: z.array(WebActivity),
  apply: WebApplyState,
});
export type WebDashboard = z.infer<typeof WebDashboard>;
export const WEB_DASHBOARD_VHOSTS = 10;
export const WEB_DASHBOARD_APPS = 10;
export const WEB_DASHBOARD_ACTIVITY = 10;

/** Spec §9 number display and error-rate colours, shared by the screens. */
export const ERROR_RATE_LEVELS = { success: 1, warning: 5 } as const;
export const errorRateTone = (rate: number): 'success' | 'warning' | 'error' =>
  rate <= ERROR_RATE_LEVELS.success ? 'success' : rate <= ERROR_RATE_LEVELS.warning ? 'warning' : 'error';

// ---------- capabilities ----------

/** An Apache module a field needs. */
export const WebModule = z.object({
  /** Apache's name, e.g. qos, deflate, brotli, ssl. */
  name: z.string(),
  /** The file under the modules folder exists. */
  installed: z.boolean(),
  /** Mailroom loads it (mods-enabled link or LoadModule in its files). */
  enabled: z.boolean(),
  /** Debian package that provides it. */
  package: z.string(),
  /** What it does for Mailroom. */
  purpose: z.string(),
});
export type WebModule = z.infer<typeof WebModule>;

export const PhpVersionState = z.object({
  version: z.enum(PHP_VERSIONS),
  installed: z.boolean(),
  /** The php-fpm program, e.g. /usr/sbin/php-fpm8.2. */
  program: z.string().nullable(),
});

/**
 * What this server can do: which vhost and settings fields are disabled and why (field name ->
 * reason; absent = usable), the PHP versions installed, the modules, and where sites may live.
 */
export const WebCapabilities = z.object({
  apacheInstalled: z.boolean(),
  apacheVersion: z.string().nullable(),
  /** local: Mailroom runs Apache on loopback ports; system: systemd runs it, Mailroom reloads it. */
  mode: z.enum(['local', 'system']),
  httpPort: z.number(),
  httpsPort: z.number(),
  /** The module that enforces rate limits, and why it was chosen. */
  rateLimitModule: z.object({ name: z.string(), reason: z.string() }),
  modules: z.array(WebModule),
  phpVersions: z.array(PhpVersionState),
  /** Document roots must resolve inside one of these. */
  allowedRoots: z.array(z.string()),
  /** Disabled virtual host fields: field -> reason. */
  vhostFields: z.record(z.string(), z.string()),
  /** Disabled server settings fields: field -> reason. */
  settingsFields: z.record(z.string(), z.string()),
});
export type WebCapabilities = z.infer<typeof WebCapabilities>;

const tags = ['web'];

export const webStatsRoutes = {
  dashboard: defineRoute({
    method: 'GET',
    path: 'web/dashboard',
    summary:
      "Web dashboard: stats from the database and Apache's access log, the real state of Apache, PHP-FPM and the database, recent activity",
    tags,
    response: WebDashboard,
  }),
  capabilities: defineRoute({
    method: 'GET',
    path: 'web/capabilities',
    summary:
      'What the installed Apache and PHP can do: disabled fields with the reason, installed PHP versions, modules',
    tags,
    response: WebCapabilities,
    access: 'domain',
  }),
};
