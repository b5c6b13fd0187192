import { z } from 'zod';
import { ListQuery } from '../common.ts';
import { JobAccepted } from '../jobs.ts';
import { fieldMessages } from '../messages.ts';
import { defineRoute } from '../route.ts';
import { queryInt } from '../validators.ts';
import {
  formatInvalid,
  hostNameField,
  intField,
  ipListField,
  joinList,
  lineField,
  optionalPathField,
  pathField,
  requiredLine,
  splitList,
  textField,
} from './fields.ts';
import { BACKUP_FREQUENCIES } from './vhosts.ts';

/**
 * Web applications (spec 3 §2.3, §3.1 "Web application", §4, §5, §9; issue 20): a real process
 * behind a virtual host, deployed from git into release folders, health-checked before Apache is
 * switched to it, with a release history and rollback.
 */

/** Spec 3 §3.1: the application types, in the spec's order. */
export const APP_TYPES = [
  'Angular',
  'PHP',
  'Node.js',
  'Python',
  'Static',
  'Roundcube',
  'WordPress',
  'Drupal',
] as const;
export type AppType = (typeof APP_TYPES)[number];
/** The types Mailroom deploys today (all of the spec's); others would be refused with `appMessages.typeNotSupported`. */
export const APP_TYPES_SUPPORTED: readonly AppType[] = [...APP_TYPES];
/** Types whose release is a process (Start Command required), proxied to by Apache. */
export const APP_PROCESS_TYPES: readonly AppType[] = ['Node.js', 'Python'];
/**
 * Angular: the Build Command writes the built site to `dist/` in the release folder (index.html at
 * `dist/index.html`); Apache serves that folder, and a path that is no file answers its index.html.
 */
export const ANGULAR_OUTPUT_DIR = 'dist';

/**
 * PHP applications (no process, no proxy): Apache serves the release folder and hands `.php` to the
 * app's own PHP-FPM pool, running as the app's user. Roundcube, WordPress and Drupal are PHP
 * applications deployed from the repository the operator gives; each type knows its layout.
 */
export const APP_PHP_TYPES: readonly AppType[] = ['PHP', 'Roundcube', 'WordPress', 'Drupal'];
export const isPhpAppType = (t: string): boolean => (APP_PHP_TYPES as readonly string[]).includes(t);

/** A PHP application type's layout in its repository. */
export interface PhpAppLayout {
  /**
   * Folders kept across releases: they live in the app's data folder (`<Deployment Path>/data`)
   * and each release links to them (what the repository has there seeds it once).
   */
  persist: readonly string[];
  /**
   * The configuration file kept across releases (in the data folder, linked into each release):
   * made once from `sample` in the repository, reading the database credentials from the
   * environment variables `env` (getenv); edit it there, never in a release. Null: none.
   */
  config: { file: string; sample: string; env: readonly string[] } | null;
  /** Every path that is no file answers this script (the app's own router). */
  frontController: boolean;
  /** Top-level folders Apache never serves (403). */
  deny: readonly string[];
  /** What the operator must provide, in plain words. */
  needs: string;
  /** Which Health Check Path answers 2xx for this type. */
  health: string;
}

export const PHP_APP_LAYOUTS: Record<'PHP' | 'Roundcube' | 'WordPress' | 'Drupal', PhpAppLayout> = {
  PHP: {
    persist: [],
    config: null,
    frontController: false,
    deny: [],
    needs:
      'Nothing beyond the repository; a database your code uses is yours to provide, its credentials given as Environment Variables (getenv in PHP).',
    health: '/, or a health.php of yours that answers 200 when the app can serve',
  },
  WordPress: {
    persist: ['wp-content/uploads'],
    config: {
      file: 'wp-config.php',
      sample: 'wp-config-sample.php',
      env: ['DB_NAME', 'DB_USER', 'DB_PASSWORD', 'DB_HOST'],
    },
    frontController: true,
    deny: [],
    needs:
      'A MySQL or MariaDB database and its user, made by you: give DB_NAME, DB_USER, DB_PASSWORD and DB_HOST as Environment Variables. Then open the site and finish the WordPress installation.',
    health:
      '/wp-admin/install.php: 200 once its database answers, before and after the installation (/ redirects to the installer until it is done)',
  },
  Drupal: {
    persist: ['sites/default/files'],
    config: {
      file: 'sites/default/settings.php',
      sample: 'sites/default/default.settings.php',
      env: ['DB_DRIVER', 'DB_NAME', 'DB_USER', 'DB_PASSWORD', 'DB_HOST', 'DB_PORT'],
    },
    frontController: true,
    deny: [],
    needs:
      'A database (MySQL/MariaDB, PostgreSQL or SQLite) and its user, made by you: give DB_DRIVER (mysql, pgsql or sqlite), DB_NAME, DB_USER, DB_PASSWORD, DB_HOST and DB_PORT as Environment Variables; the repository must hold Drupal with its vendor/ folder (composer install as the Build Command needs composer and its network). Then open the site and finish the Drupal installation.',
    health: '/core/install.php until Drupal is installed (/ redirects to it), then /',
  },
  Roundcube: {
    persist: ['temp', 'logs'],
    config: {
      file: 'config/config.inc.php',
      sample: 'config/config.inc.php.sample',
      env: ['ROUNDCUBE_DB_DSNW', 'ROUNDCUBE_IMAP_HOST', 'ROUNDCUBE_SMTP_HOST'],
    },
    frontController: false,
    deny: ['temp', 'logs', 'config', 'bin', 'SQL', 'installer'],
    needs:
      "A database for Roundcube (e.g. MySQL or PostgreSQL, or SQLite) with its schema (SQL/ in the repository), made by you: give ROUNDCUBE_DB_DSNW (e.g. mysql://user:password@localhost/roundcube) as an Environment Variable, and ROUNDCUBE_IMAP_HOST / ROUNDCUBE_SMTP_HOST for this server's IMAP and submission (e.g. localhost:143, localhost:587). The repository must hold Roundcube with its vendor/ folder (a release archive's tree).",
    health: '/ (its login page): 200 once its database answers',
  },
};

export const phpAppLayout = (type: string): PhpAppLayout | null =>
  isPhpAppType(type) ? PHP_APP_LAYOUTS[type as keyof typeof PHP_APP_LAYOUTS] : null;

/**
 * A PHP application's variables reach PHP as FastCGI parameters written in its Apache host
 * (getenv()/$_SERVER): a value cannot hold what Apache would read as quoting or a variable.
 */
export const PHP_ENV_UNSAFE_RE = /["\\]|\$\{/;

/** What the form says of a PHP type (kept files, what the operator provides: `phpAppHelp`). */
const PHP_NOTE =
  "Apache serves the release folder and runs its .php files in the app's own PHP-FPM pool, as the app's user, with the app's Memory Limit as PHP's memory_limit (no Start Command, no port).";

/**
 * The type-specific help of a PHP type, in plain words: what is kept across releases and where,
 * what the operator must provide, how the health check reaches it. Shown in the form and the log.
 */
export function phpAppHelp(type: string): { kept: string[]; needs: string; health: string } | null {
  const l = phpAppLayout(type);
  if (!l) return null;
  return {
    kept: [
      ...l.persist.map((f) => `${f}/`),
      ...(l.config
        ? [
            `${l.config.file} (made once from ${l.config.sample}; reads ${l.config.env.join(', ')} with getenv)`,
          ]
        : []),
    ],
    needs: l.needs,
    health: `Health Check Path: ${l.health}. A new release is asked through the pool before Apache switches to it.`,
  };
}

/** What each deployable type needs from the operator (shown in the form under Type). */
export const APP_TYPE_NOTES: Partial<Record<AppType, string>> = {
  'Node.js':
    "Mailroom runs the Start Command (e.g. node server.js) as the app's user with PORT set, and proxies the domain to it. Dependencies: give a Build Command (e.g. npm ci); this server installs nothing by itself.",
  Python:
    "Mailroom runs the Start Command (e.g. python3 app.py) as the app's user with PORT set, and proxies the domain to it; the app listens on 127.0.0.1:$PORT. Dependencies: a requirements.txt is not installed by itself: give a Build Command (e.g. python3 -m pip install --target vendor -r requirements.txt) and make sure pip can reach its index or a local wheel folder, or use only the standard library.",
  Static: "Apache serves the repository's files as they are (after the Build Command, when given).",
  PHP: PHP_NOTE,
  Roundcube: PHP_NOTE,
  WordPress: PHP_NOTE,
  Drupal: PHP_NOTE,
  Angular: `The Build Command (e.g. npx ng build) must write the site to ${ANGULAR_OUTPUT_DIR}/ in the repository folder (angular.json: "outputPath": { "base": "${ANGULAR_OUTPUT_DIR}", "browser": "" }). Apache serves ${ANGULAR_OUTPUT_DIR}/ and answers index.html for a path that is no file (deep links).`,
};
/** Spec 3 §2.3 type filter (value '' = all). */
export const APP_TYPE_FILTER = [
  { value: '', label: 'All Types' },
  { value: 'Angular', label: 'Angular' },
  { value: 'PHP', label: 'PHP' },
  { value: 'Node.js', label: 'Node.js' },
  { value: 'Python', label: 'Python' },
  { value: 'Static', label: 'Static' },
  { value: 'Roundcube', label: 'Roundcube' },
] as const;

/** Spec 3 §3.1 / §4: status of an application. */
export const APP_STATUSES = ['active', 'inactive', 'deploying', 'error'] as const;
export type AppStatus = (typeof APP_STATUSES)[number];
/** Spec 3 §2.3 status filter (value '' = all). */
export const APP_STATUS_FILTER = [
  { value: '', label: 'All Status' },
  { value: 'active', label: 'Active' },
  { value: 'inactive', label: 'Inactive' },
  { value: 'deploying', label: 'Deploying' },
  { value: 'error', label: 'Error' },
] as const;
/** Spec §4 toggle: active -> inactive, anything else -> active. */
export const toggledAppStatus = (s: AppStatus): 'active' | 'inactive' =>
  s === 'active' ? 'inactive' : 'active';

export const APP_ENVIRONMENTS = ['development', 'staging', 'production'] as const;
export const APP_CACHE_STRATEGIES = ['memory', 'redis', 'file', 'database'] as const;
export const APP_LOG_LEVELS = ['debug', 'info', 'warn', 'error'] as const;

/** Sections of the Add/Edit Web Application modal, in the spec's order (§2.3). */
export const APP_SECTIONS = [
  'Basic',
  'Repository',
  'SSL',
  'Deployment',
  'Monitoring',
  'Performance',
  'Security',
  'Scaling',
  'Maintenance',
  'Custom Configuration',
] as const;

export const appLabels = {
  name: 'Name',
  domain: 'Domain',
  type: 'Type',
  status: 'Status',
  version: 'Version',
  description: 'Description',
  repository: 'Repository',
  branch: 'Branch',
  deploymentPath: 'Deployment Path',
  environment: 'Environment',
  port: 'Port',
  sslEnabled: 'Enable SSL',
  sslCertificate: 'SSL Certificate',
  sslPrivateKey: 'SSL Private Key',
  enableLogging: 'Enable Logging',
  logLevel: 'Log Level',
  logPath: 'Log Path',
  enableMonitoring: 'Enable Monitoring',
  monitoringEndpoint: 'Monitoring Endpoint',
  enableHealthChecks: 'Enable Health Checks',
  healthCheckPath: 'Health Check Path',
  healthCheckInterval: 'Health Check Interval',
  healthCheckTimeout: 'Health Check Timeout',
  enableAutoDeploy: 'Enable Auto Deploy',
  autoDeployBranch: 'Auto Deploy Branch',
  enableBackup: 'Enable Backup',
  backupFrequency: 'Backup Frequency',
  backupRetention: 'Backup Retention',
  enableCaching: 'Enable Caching',
  cacheStrategy: 'Cache Strategy',
  cacheExpiry: 'Cache Expiry',
  enableCompression: 'Enable Compression',
  compressionLevel: 'Compression Level',
  enableSecurityHeaders: 'Enable Security Headers',
  enableRateLimiting: 'Enable Rate Limiting',
  rateLimitRequests: 'Rate Limit Requests',
  rateLimitWindow: 'Rate Limit Window',
  enableAccessControl: 'Enable Access Control',
  allowedIps: 'Allowed IPs',
  blockedIps: 'Blocked IPs',
  enableMaintenanceMode: 'Enable Maintenance Mode',
  maintenanceMessage: 'Maintenance Message',
  customEnvironmentVariables: 'Environment Variables',
  customDirectives: 'Custom Directives',
  dependencies: 'Dependencies',
  buildCommand: 'Build Command',
  startCommand: 'Start Command',
  stopCommand: 'Stop Command',
  restartCommand: 'Restart Command',
  enableLoadBalancing: 'Enable Load Balancing',
  enableScaling: 'Enable Scaling',
  minInstances: 'Min Instances',
  maxInstances: 'Max Instances',
  cpuLimit: 'CPU Limit',
  memoryLimit: 'Memory Limit',
  enableGracefulShutdown: 'Enable Graceful Shutdown',
  shutdownTimeout: 'Shutdown Timeout',
} as const;
export type AppField = keyof typeof appLabels;
const L = appLabels;

export const appMessages = {
  saved: 'Web application saved successfully!',
  deleteConfirm: (name: string) => `Are you sure you want to delete the application "${name}"?`,
  loadFailed: 'Failed to load web applications',
  empty: 'No web applications found',
  searchPlaceholder: 'Search applications...',
  exists: (name: string) => `An application ${name} already exists`,
  notFound: (name: string) => `Application ${name} was not found`,
  domainTaken: (domain: string, name: string) => `${domain} is already served by the application ${name}`,
  vhostNotProxy: (domain: string) =>
    `The virtual host ${domain} serves files of its own; choose another domain or delete that host first`,
  typeNotSupported: (type: string) =>
    `${type} applications are not deployed by Mailroom yet: only ${APP_TYPES_SUPPORTED.slice(0, -1).join(', ')} and ${APP_TYPES_SUPPORTED.at(-1)} are`,
  deploymentPathOutside: (roots: readonly string[]) =>
    `Deployment Path must be inside ${roots.join(' or ')} (symbolic links resolved)`,
  startCommandRequired: 'Start Command is required for a Node.js or Python application',
  logPathOutside: (roots: readonly string[], name: string) =>
    `Log Path must be a .log file inside ${roots.join(' or ')} or /var/log/${name || '<name>'}/ (symbolic links resolved)`,
  angularOutputMissing: (found: string | null) =>
    `The build wrote no ${ANGULAR_OUTPUT_DIR}/index.html${found ? ` (there is ${found}: set the output path to ${ANGULAR_OUTPUT_DIR}/)` : ''}`,
  repositoryRequired: 'Repository is required to deploy',
  plainCommand: (label: string) =>
    `${label} must be a plain command: no shell characters (; | & $ \` < > ( ) { } \\ newline)`,
  fieldNotSupported: (label: string, why: string) => `${label} is not supported yet: ${why}`,
  busy: (name: string) => `${name} is being deployed; wait for that job to finish`,
  noRelease: (name: string) => `${name} has no healthy release to run yet: deploy it first`,
  noPreviousRelease: (name: string) => `${name} has no earlier release to roll back to`,
  releaseNotFound: (id: number) => `Release ${id} was not found`,
  deployStarted: (name: string) => `Deploying ${name}`,
  rollbackStarted: (name: string) => `Rolling back ${name}`,
  started: (name: string) => `${name} started`,
  stopped: (name: string) => `${name} stopped`,
  restarted: (name: string) => `${name} restarted`,
  phpEnvValue: (name: string) =>
    `${L.customEnvironmentVariables}: ${name} cannot hold " or \\ or \${ in a PHP application (its values are written into its Apache host)`,
  phpNotInstalled:
    'PHP-FPM is not installed on this server (Debian package php8.2-fpm): a PHP application cannot run yet',
  phpConfigMissing: (type: string, file: string, sample: string) =>
    `The repository has neither ${file} nor ${sample}: is it ${type}?`,
  phpHealthFailed: (path: string, seconds: number, last: string) =>
    `The new release did not answer 2xx on ${path} through its PHP-FPM pool within ${seconds} s (last: ${last}); the previous release keeps serving`,
  healthFailed: (path: string, seconds: number) =>
    `The new release did not answer 2xx on ${path} within ${seconds} s; the previous release keeps serving`,
} as const;

// ---------- field helpers ----------

/** Name: also the Unix user `mr-app-<name>` (32 characters at most) and the folder name. */
export const APP_NAME_RE = /^[a-z][a-z0-9-]{0,23}$/;
export const APP_NAME_HINT =
  'lower-case letters, digits and hyphens, starting with a letter, 24 characters at most';

/**
 * Git refs: an allowlist (letters, digits, `.`, `_`, `-`, `/`), never starting with `-` or `/`, no `..`,
 * `//`, `@{`, no trailing `/`, `.` or `.lock`. A 40 (or 7+) hex commit is a ref too.
 */
export const GIT_REF_RE =
  /^(?![-/.])(?!.*\.\.)(?!.*\/\/)(?!.*\/\.)(?!.*(?:\.lock|\/|\.)$)[A-Za-z0-9._/-]{1,200}$/;
export const isGitRef = (v: string): boolean => GIT_REF_RE.test(v);

/**
 * A repository Mailroom may clone: https://, ssh:// or git:// URL, scp-like `user@host:path`, or an
 * absolute local path (file:// or /…). Never starting with `-` (option injection), no spaces, no
 * shell characters, no `ext::`/`fd::` transports.
 */
export const GIT_REPOSITORY_RE =
  /^(?:(?:https?|ssh|git|file):\/\/[A-Za-z0-9._~:@%/+-]+|[A-Za-z0-9._-]+@[A-Za-z0-9.-]+:[A-Za-z0-9._~/+-]+|\/[A-Za-z0-9._~/+-]+)$/;
export const isGitRepository = (v: string): boolean => GIT_REPOSITORY_RE.test(v) && !v.includes('..');

/** Characters a command must not hold (it is split into an argument list and never given to a shell). */
// eslint-disable-next-line no-control-regex
export const SHELL_CHARS_RE = /[;|&$`<>(){}\\\r\n\u0000]/;

/**
 * Splits a command into its argument list: words separated by blanks, single or double quotes group
 * words (no escapes, no expansion). Answers null when it holds shell characters or an open quote.
 */
export function splitCommand(command: string): string[] | null {
  if (SHELL_CHARS_RE.test(command)) return null;
  const out: string[] = [];
  let cur = '';
  let inWord = false;
  let quote: '"' | "'" | null = null;
  for (const ch of command) {
    if (quote) {
      if (ch === quote) quote = null;
      else cur += ch;
      continue;
    }
    if (ch === '"' || ch === "'") {
      quote = ch;
      inWord = true;
    } else if (ch === ' ' || ch === '\t') {
      if (inWord) out.push(cur);
      cur = '';
      inWord = false;
    } else {
      cur += ch;
      inWord = true;
    }
  }
  if (quote) return null;
  if (inWord) out.push(cur);
  return out;
}

const commandField = (label: string) =>
  lineField(label, 2000).refine((v) => v === '' || splitCommand(v) !== null, appMessages.plainCommand(label));

/** A URL path such as /health or /metrics. */
export const URL_PATH_RE = /^\/[A-Za-z0-9._~!*'@:+,=/%-]*(?:\?[A-Za-z0-9._~!*'@:+,=/%&-]*)?$/;
const urlPathField = (label: string) =>
  requiredLine(label, 500).refine((v) => v === '' || URL_PATH_RE.test(v), formatInvalid(label));

/** Environment variable names: POSIX portable names. */
export const ENV_NAME_RE = /^[A-Za-z_][A-Za-z0-9_]{0,127}$/;
/** Set by Mailroom for every release (the loopback port it gives the release). */
export const APP_RESERVED_ENV = ['PORT'] as const;

const envField = z
  .record(z.string(), z.string({ error: `${L.customEnvironmentVariables} values must be text` }), {
    error: `${L.customEnvironmentVariables} must be a map of names to values`,
  })
  .superRefine((env, ctx) => {
    const keys = Object.keys(env);
    if (keys.length > 200) {
      ctx.addIssue({
        code: 'custom',
        message: `${L.customEnvironmentVariables} must have at most 200 entries`,
      });
    }
    for (const k of keys) {
      if (!ENV_NAME_RE.test(k)) {
        ctx.addIssue({ code: 'custom', message: `${formatInvalid(L.customEnvironmentVariables)}: ${k}` });
        return;
      }
      if ((APP_RESERVED_ENV as readonly string[]).includes(k)) {
        ctx.addIssue({ code: 'custom', message: `${L.customEnvironmentVariables}: ${k} is set by Mailroom` });
        return;
      }
      const v = env[k] ?? '';
      // eslint-disable-next-line no-control-regex
      if (v.length > 4000 || /[\r\n\u0000]/.test(v)) {
        ctx.addIssue({ code: 'custom', message: `${L.customEnvironmentVariables}: ${k} must be one line` });
        return;
      }
    }
  });

/** Kubernetes-style limits (spec §9: 500m, 512Mi). */
export const CPU_LIMIT_RE = /^(?:[1-9][0-9]{0,5}m|[1-9][0-9]?(?:\.[0-9]{1,3})?)$/;
export const MEMORY_LIMIT_RE = /^[1-9][0-9]{0,6}(?:Ki|Mi|Gi)?$/;

// ---------- the input ----------

/** The application fields an administrator edits (API: lists as arrays, env as a map). */
export const WebApplicationInput = z
  .object({
    name: requiredLine(L.name, 24).refine((v) => v === '' || APP_NAME_RE.test(v), formatInvalid(L.name)),
    domain: hostNameField(L.domain),
    type: z.enum(APP_TYPES, { error: fieldMessages.required(L.type) }).default('Node.js'),
    version: requiredLine(L.version, 64),
    description: lineField(L.description, 1000).default(''),
    repository: lineField(L.repository, 1000)
      .refine((v) => v === '' || isGitRepository(v), formatInvalid(L.repository))
      .default(''),
    branch: requiredLine(L.branch, 200)
      .refine((v) => v === '' || isGitRef(v), formatInvalid(L.branch))
      .default('main'),
    deploymentPath: pathField(L.deploymentPath),
    environment: z
      .enum(APP_ENVIRONMENTS, { error: fieldMessages.required(L.environment) })
      .default('production'),
    port: intField(L.port, 1, 65535).default(3000),
    sslEnabled: z.boolean().default(false),
    sslCertificate: optionalPathField(L.sslCertificate).default(''),
    sslPrivateKey: optionalPathField(L.sslPrivateKey).default(''),
    enableLogging: z.boolean().default(true),
    logLevel: z.enum(APP_LOG_LEVELS, { error: fieldMessages.required(L.logLevel) }).default('info'),
    logPath: optionalPathField(L.logPath).default(''),
    enableMonitoring: z.boolean().default(true),
    monitoringEndpoint: urlPathField(L.monitoringEndpoint).default('/metrics'),
    enableHealthChecks: z.boolean().default(true),
    healthCheckPath: urlPathField(L.healthCheckPath).default('/health'),
    healthCheckInterval: intField(L.healthCheckInterval, 1, 3600).default(30),
    healthCheckTimeout: intField(L.healthCheckTimeout, 1, 600).default(10),
    enableAutoDeploy: z.boolean().default(false),
    autoDeployBranch: lineField(L.autoDeployBranch, 200)
      .refine((v) => v === '' || isGitRef(v), formatInvalid(L.autoDeployBranch))
      .default(''),
    enableBackup: z.boolean().default(true),
    backupFrequency: z
      .enum(BACKUP_FREQUENCIES, { error: fieldMessages.required(L.backupFrequency) })
      .default('weekly'),
    backupRetention: intField(L.backupRetention, 1).default(30),
    enableCaching: z.boolean().default(false),
    cacheStrategy: z
      .enum(APP_CACHE_STRATEGIES, { error: fieldMessages.required(L.cacheStrategy) })
      .default('memory'),
    cacheExpiry: intField(L.cacheExpiry, 1).default(3600),
    enableCompression: z.boolean().default(true),
    compressionLevel: intField(L.compressionLevel, 1, 9).default(6),
    enableSecurityHeaders: z.boolean().default(true),
    enableRateLimiting: z.boolean().default(false),
    rateLimitRequests: intField(L.rateLimitRequests, 1).default(100),
    rateLimitWindow: intField(L.rateLimitWindow, 1).default(60),
    enableAccessControl: z.boolean().default(false),
    allowedIps: ipListField(L.allowedIps).default([]),
    blockedIps: ipListField(L.blockedIps).default([]),
    enableMaintenanceMode: z.boolean().default(false),
    maintenanceMessage: lineField(L.maintenanceMessage, 2000).default(''),
    customEnvironmentVariables: envField.default({}),
    customDirectives: textField(L.customDirectives).default(''),
    dependencies: z
      .array(lineField(L.dependencies, 200), { error: `${L.dependencies} must be a list` })
      .max(200, `${L.dependencies} must have at most 200 entries`)
      .default([]),
    buildCommand: commandField(L.buildCommand).default(''),
    startCommand: commandField(L.startCommand).default(''),
    stopCommand: commandField(L.stopCommand).default(''),
    restartCommand: commandField(L.restartCommand).default(''),
    enableLoadBalancing: z.boolean().default(false),
    enableScaling: z.boolean().default(false),
    minInstances: intField(L.minInstances, 1, 100).default(1),
    maxInstances: intField(L.maxInstances, 1, 100).default(10),
    cpuLimit: requiredLine(L.cpuLimit, 16)
      .refine((v) => v === '' || CPU_LIMIT_RE.test(v), formatInvalid(L.cpuLimit))
      .default('500m'),
    memoryLimit: requiredLine(L.memoryLimit, 16)
      .refine((v) => v === '' || MEMORY_LIMIT_RE.test(v), formatInvalid(L.memoryLimit))
      .default('512Mi'),
    enableGracefulShutdown: z.boolean().default(true),
    shutdownTimeout: intField(L.shutdownTimeout, 0, 3600).default(30),
  })
  .superRefine((v, ctx) => {
    if (APP_PROCESS_TYPES.includes(v.type) && v.startCommand.trim() === '') {
      ctx.addIssue({ code: 'custom', path: ['startCommand'], message: appMessages.startCommandRequired });
    }
    if (isPhpAppType(v.type)) {
      const bad = Object.entries(v.customEnvironmentVariables).find(([, x]) => PHP_ENV_UNSAFE_RE.test(x));
      if (bad)
        ctx.addIssue({
          code: 'custom',
          path: ['customEnvironmentVariables'],
          message: appMessages.phpEnvValue(bad[0]),
        });
    }
  });
export type WebApplicationInput = z.input<typeof WebApplicationInput>;
export type WebApplicationValues = z.output<typeof WebApplicationInput>;

/** Spec 3 §9 application defaults (name, domain, version, deploymentPath are the caller's). */
export const APP_DEFAULTS = {
  type: 'Node.js' as AppType,
  description: '',
  repository: '',
  branch: 'main',
  environment: 'production' as (typeof APP_ENVIRONMENTS)[number],
  port: 3000,
  sslEnabled: false,
  sslCertificate: '',
  sslPrivateKey: '',
  enableLogging: true,
  logLevel: 'info' as (typeof APP_LOG_LEVELS)[number],
  logPath: '',
  enableMonitoring: true,
  monitoringEndpoint: '/metrics',
  enableHealthChecks: true,
  healthCheckPath: '/health',
  healthCheckInterval: 30,
  healthCheckTimeout: 10,
  enableAutoDeploy: false,
  autoDeployBranch: '',
  enableBackup: true,
  backupFrequency: 'weekly' as (typeof BACKUP_FREQUENCIES)[number],
  backupRetention: 30,
  enableCaching: false,
  cacheStrategy: 'memory' as (typeof APP_CACHE_STRATEGIES)[number],
  cacheExpiry: 3600,
  enableCompression: true,
  compressionLevel: 6,
  enableSecurityHeaders: true,
  enableRateLimiting: false,
  rateLimitRequests: 100,
  rateLimitWindow: 60,
  enableAccessControl: false,
  allowedIps: [] as string[],
  blockedIps: [] as string[],
  enableMaintenanceMode: false,
  maintenanceMessage: '',
  customEnvironmentVariables: {} as Record<string, string>,
  customDirectives: '',
  dependencies: [] as string[],
  buildCommand: '',
  startCommand: '',
  stopCommand: '',
  restartCommand: '',
  enableLoadBalancing: false,
  enableScaling: false,
  minInstances: 1,
  maxInstances: 10,
  cpuLimit: '500m',
  memoryLimit: '512Mi',
  enableGracefulShutdown: true,
  shutdownTimeout: 30,
};

// ---------- what the API answers ----------

const appConfigShape = {
  name: z.string(),
  domain: z.string(),
  type: z.enum(APP_TYPES),
  version: z.string(),
  description: z.string(),
  repository: z.string(),
  branch: z.string(),
  deploymentPath: z.string(),
  environment: z.enum(APP_ENVIRONMENTS),
  port: z.number(),
  sslEnabled: z.boolean(),
  sslCertificate: z.string(),
  sslPrivateKey: z.string(),
  enableLogging: z.boolean(),
  logLevel: z.enum(APP_LOG_LEVELS),
  logPath: z.string(),
  enableMonitoring: z.boolean(),
  monitoringEndpoint: z.string(),
  enableHealthChecks: z.boolean(),
  healthCheckPath: z.string(),
  healthCheckInterval: z.number(),
  healthCheckTimeout: z.number(),
  enableAutoDeploy: z.boolean(),
  autoDeployBranch: z.string(),
  enableBackup: z.boolean(),
  backupFrequency: z.enum(BACKUP_FREQUENCIES),
  backupRetention: z.number(),
  enableCaching: z.boolean(),
  cacheStrategy: z.enum(APP_CACHE_STRATEGIES),
  cacheExpiry: z.number(),
  enableCompression: z.boolean(),
  compressionLevel: z.number(),
  enableSecurityHeaders: z.boolean(),
  enableRateLimiting: z.boolean(),
  rateLimitRequests: z.number(),
  rateLimitWindow: z.number(),
  enableAccessControl: z.boolean(),
  allowedIps: z.array(z.string()),
  blockedIps: z.array(z.string()),
  enableMaintenanceMode: z.boolean(),
  maintenanceMessage: z.string(),
  customDirectives: z.string(),
  dependencies: z.array(z.string()),
  buildCommand: z.string(),
  startCommand: z.string(),
  stopCommand: z.string(),
  restartCommand: z.string(),
  enableLoadBalancing: z.boolean(),
  enableScaling: z.boolean(),
  minInstances: z.number(),
  maxInstances: z.number(),
  cpuLimit: z.string(),
  memoryLimit: z.string(),
  enableGracefulShutdown: z.boolean(),
  shutdownTimeout: z.number(),
};

/** An instance of the running release: `running`, or `restarting` (it exited; the supervisor restarts it with back-off). */
export const APP_INSTANCE_STATES = ['running', 'restarting'] as const;
export const AppInstance = z.object({
  /** 1, 2, 3…: the process sees it as MAILROOM_INSTANCE. */
  id: z.number(),
  port: z.number(),
  pid: z.number().nullable(),
  state: z.enum(APP_INSTANCE_STATES),
  /** Resident memory of its process (VmRSS), bytes; null: not running. */
  memoryBytes: z.number().nullable(),
});
export type AppInstance = z.infer<typeof AppInstance>;

/** Whether Memory Limit and CPU Limit are enforced here, and how (or why not, plainly). */
export const AppResourceLimits = z.object({
  enforced: z.boolean(),
  /** e.g. "cgroup v2", "systemd unit"; '' when not enforced. */
  mechanism: z.string(),
  /** Enforced: what is set (e.g. "memory.max 536870912, cpu.max 50000 100000"); not: "limit not enforced: <reason>". */
  detail: z.string(),
});
export type AppResourceLimits = z.infer<typeof AppResourceLimits>;

/** A row of the list (environment values are never in a list answer: only their names). */
export const WebApplicationSummary = z.object({
  id: z.number(),
  ...appConfigShape,
  status: z.enum(APP_STATUSES),
  /** Why the status is error (the last lines of the failed deploy or of the crashed process). */
  statusMessage: z.string(),
  /** ISO date of the last successful switch to a release; null: never deployed. */
  lastDeployed: z.string().nullable(),
  /** Seconds the running release's process has been up; null: not running. */
  uptime: z.number().nullable(),
  /** Requests and 5xx answers in the last 24 hours (Apache's access log of its domain). */
  requests: z.number(),
  errors: z.number(),
  /** Names of the custom environment variables (values: GET one application). */
  environmentVariableNames: z.array(z.string()),
  /** The release Apache proxies to (null: none yet). */
  currentReleaseId: z.number().nullable(),
  /** Commit of the running release (null: none). */
  currentCommit: z.string().nullable(),
  /** Loopback port of the running release (null: not running). */
  runningPort: z.number().nullable(),
  /** Process id of the running release (null: not running). */
  pid: z.number().nullable(),
  /** Every running instance of the live release (several with Enable Load Balancing). */
  instances: z.array(AppInstance),
  /** Memory Limit / CPU Limit: enforced or not, and why. */
  resourceLimits: AppResourceLimits,
  /** Bytes used by the release folders under deploymentPath. */
  diskUsage: z.number(),
  /** The job deploying it now (null: none): follow it with GET …/deploy-log. */
  deployJobId: z.number().nullable(),
  /** Unix user the app runs as ('' when Mailroom is not root: it runs as Mailroom's user). */
  runAs: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type WebApplicationSummary = z.infer<typeof WebApplicationSummary>;

/** One application (GET one, save answers): with its environment values, for the edit form. */
export const WebApplication = WebApplicationSummary.extend({
  customEnvironmentVariables: z.record(z.string(), z.string()),
});
export type WebApplication = z.infer<typeof WebApplication>;

// ---------- releases ----------

/** A release's life: building → starting → live → retired (or failed at any step). */
export const RELEASE_STATES = ['building', 'starting', 'live', 'retired', 'failed'] as const;
export type ReleaseState = (typeof RELEASE_STATES)[number];
export const RELEASE_TRIGGERS = ['deploy', 'rollback'] as const;
/** Release folders kept per application (the live one and the four before it); older are deleted. */
export const RELEASE_RETENTION = 5;

/** Seconds each step of a deploy took (null: not reached). */
export const DeployTimings = z.object({
  clone: z.number().nullable(),
  build: z.number().nullable(),
  start: z.number().nullable(),
  health: z.number().nullable(),
  switch: z.number().nullable(),
});
export type DeployTimings = z.infer<typeof DeployTimings>;

export const WebAppRelease = z.object({
  id: z.number(),
  applicationId: z.number(),
  /** 1, 2, 3… per application. */
  number: z.number(),
  state: z.enum(RELEASE_STATES),
  trigger: z.enum(RELEASE_TRIGGERS),
  /** For a rollback: the release it ran again. */
  sourceReleaseId: z.number().nullable(),
  /** What was asked (branch, tag or commit) and the commit it resolved to. */
  ref: z.string(),
  commit: z.string().nullable(),
  /** Release folder (deleted when pruned: then null). */
  path: z.string().nullable(),
  port: z.number().nullable(),
  /** sha256 of the virtual host file rendered for this release. */
  vhostConfigHash: z.string().nullable(),
  /** Names of the environment variables it ran with (the values are stored encrypted, never answered). */
  environmentVariableNames: z.array(z.string()),
  diskUsage: z.number(),
  timings: DeployTimings,
  message: z.string(),
  jobId: z.number().nullable(),
  startedBy: z.string().nullable(),
  createdAt: z.string(),
  finishedAt: z.string().nullable(),
});
export type WebAppRelease = z.infer<typeof WebAppRelease>;

/** One release with its build log. */
export const WebAppReleaseDetail = WebAppRelease.extend({ buildLog: z.string() });
export type WebAppReleaseDetail = z.infer<typeof WebAppReleaseDetail>;

// ---------- the deploy log ----------

export const DEPLOY_LOG_STREAMS = ['info', 'stdout', 'stderr'] as const;
export const DeployLogLine = z.object({
  /** 1, 2, 3… per job: ask for `after=<last seq seen>` to resume without losing lines. */
  seq: z.number(),
  at: z.string(),
  stream: z.enum(DEPLOY_LOG_STREAMS),
  text: z.string(),
});
export type DeployLogLine = z.infer<typeof DeployLogLine>;

export const DeployLogQuery = z.object({
  /** The deploy (or rollback) job; absent: the application's latest one. */
  jobId: queryInt(1, 2 ** 31 - 1, 'jobId').optional(),
  /** Lines with a seq above this (default 0: from the start). */
  after: queryInt(0, undefined, 'after').optional(),
  limit: queryInt(1, 5000, 'limit').optional(),
});
export type DeployLogQuery = z.input<typeof DeployLogQuery>;

export const DeployLog = z.object({
  jobId: z.number().nullable(),
  /** The job's state (null: no deploy yet). */
  state: z.string().nullable(),
  lines: z.array(DeployLogLine),
  /** Highest seq answered (pass it as `after` next time). */
  lastSeq: z.number(),
  /** The job has ended and every line has been answered. */
  done: z.boolean(),
});
export type DeployLog = z.infer<typeof DeployLog>;

/**
 * How a console follows a deploy live: the job's `event: job` on /api/events carries
 * `counts.logLines`, the seq of the last stored line; read GET …/deploy-log?after=<last seq you
 * have> whenever it moves (and once after a reload: nothing is lost, lines are numbered).
 * `app-log` (below) is reserved for pushing the lines themselves: the server does not send it yet.
 */
export const DEPLOY_LOG_COUNT = 'logLines';
/** Reserved (not sent yet): an SSE event carrying the new lines themselves. */
export const APP_LOG_EVENT = 'app-log';
export const AppLogEvent = z.object({
  applicationId: z.number(),
  name: z.string(),
  jobId: z.number(),
  lines: z.array(DeployLogLine),
});
export type AppLogEvent = z.infer<typeof AppLogEvent>;

// ---------- the form (lists and env as comma-separated text, spec §3.1) ----------

export type AppFormValues = Omit<
  WebApplicationValues,
  'allowedIps' | 'blockedIps' | 'dependencies' | 'customEnvironmentVariables'
> & {
  allowedIps: string;
  blockedIps: string;
  dependencies: string;
  /** key=value, comma-separated. */
  customEnvironmentVariables: string;
};

export const APP_FORM_DEFAULTS: AppFormValues = {
  ...APP_DEFAULTS,
  name: '',
  domain: '',
  version: '',
  deploymentPath: '',
  allowedIps: '',
  blockedIps: '',
  dependencies: '',
  customEnvironmentVariables: '',
};

/** `A=1, B=two` -> { A: '1', B: 'two' } (an item without `=` keeps an empty value). */
export function parseEnvText(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const item of splitList(text)) {
    const i = item.indexOf('=');
    if (i === -1) out[item] = '';
    else out[item.slice(0, i).trim()] = item.slice(i + 1).trim();
  }
  return out;
}
export const envToText = (env: Record<string, string>): string =>
  Object.entries(env)
    .map(([k, v]) => `${k}=${v}`)
    .join(', ');

export const appToForm = (a: WebApplication): AppFormValues => ({
  ...APP_FORM_DEFAULTS,
  ...Object.fromEntries(Object.keys(APP_FORM_DEFAULTS).map((k) => [k, a[k as keyof WebApplication]])),
  allowedIps: joinList(a.allowedIps),
  blockedIps: joinList(a.blockedIps),
  dependencies: joinList(a.dependencies),
  customEnvironmentVariables: envToText(a.customEnvironmentVariables),
});

export const appFormToInput = (f: AppFormValues): WebApplicationInput => ({
  ...f,
  allowedIps: splitList(f.allowedIps),
  blockedIps: splitList(f.blockedIps),
  dependencies: splitList(f.dependencies),
  customEnvironmentVariables: parseEnvText(f.customEnvironmentVariables),
});

export const WebApplicationFormSchema = z
  .custom<AppFormValues>((v) => typeof v === 'object' && v !== null)
  .transform((f) => appFormToInput(f))
  .pipe(WebApplicationInput);

export function appFormErrors(f: AppFormValues): Partial<Record<AppField, string>> {
  const r = WebApplicationInput.safeParse(appFormToInput(f));
  const out: Partial<Record<AppField, string>> = {};
  if (r.success) return out;
  for (const issue of r.error.issues) {
    const k = issue.path[0] as AppField | undefined;
    if (k && !out[k]) out[k] = issue.message;
  }
  return out;
}

// ---------- capabilities ----------

/** What this server can do for applications: supported types, fields not built yet (field -> reason). */
export const WebAppCapabilities = z.object({
  supportedTypes: z.array(z.enum(APP_TYPES)),
  /** Type -> why it is refused. */
  unsupportedTypes: z.record(z.string(), z.string()),
  /** Field -> why it cannot be turned on yet (absent: usable). */
  fields: z.record(z.string(), z.string()),
  /** Deployment paths must resolve inside one of these. */
  allowedRoots: z.array(z.string()),
  /** Whether apps run as their own Unix user (mr-app-<name>), and why not. */
  ownUser: z.object({ enabled: z.boolean(), reason: z.string() }),
  /** Whether Mailroom runs the app processes itself (local mode) and why not. */
  supervised: z.object({ enabled: z.boolean(), reason: z.string() }),
  releaseRetention: z.number(),
});
export type WebAppCapabilities = z.infer<typeof WebAppCapabilities>;

// ---------- requests ----------

export const APP_LIST_DEFAULT_LIMIT = 50;
export const APP_LIST_MAX_LIMIT = 500;
export const APP_SORT_FIELDS = ['name', 'domain', 'type', 'status', 'lastDeployed'] as const;
export const AppListQuery = ListQuery.extend({
  limit: queryInt(1, APP_LIST_MAX_LIMIT, 'limit').optional(),
  sort: z
    .enum([...APP_SORT_FIELDS, ...APP_SORT_FIELDS.map((f) => `-${f}` as const)], {
      error: `sort must be one of ${APP_SORT_FIELDS.join(', ')}, optionally prefixed with -`,
    })
    .optional(),
  type: z.enum(APP_TYPES, { error: `type must be one of ${APP_TYPES.join(', ')}` }).optional(),
  status: z.enum(APP_STATUSES, { error: `status must be one of ${APP_STATUSES.join(', ')}` }).optional(),
});
export type AppListQuery = z.input<typeof AppListQuery>;

const nameParam = z.object({
  name: z.string().regex(APP_NAME_RE, formatInvalid(L.name)),
});
const releaseParams = nameParam.extend({ id: queryInt(1, 2 ** 31 - 1, 'Release id') });

export const DeployRequest = z.object({
  /** Branch, tag or commit to deploy (default: the application's branch). */
  ref: z
    .string({ error: formatInvalid(L.branch) })
    .trim()
    .max(200, formatInvalid(L.branch))
    .refine((v) => isGitRef(v), formatInvalid(L.branch))
    .optional(),
});
export type DeployRequest = z.input<typeof DeployRequest>;

export const RollbackRequest = z.object({
  /** The release to run again (default: the one before the live one). */
  releaseId: z.number({ error: 'releaseId must be a release id' }).int().positive().optional(),
});
export type RollbackRequest = z.input<typeof RollbackRequest>;

export const RemoveAppRequest = z.object({
  /** Keep the release folders (default) or delete them with the application. */
  keepFiles: z.boolean({ error: 'keepFiles must be true or false' }).default(true),
});
export type RemoveAppRequest = z.input<typeof RemoveAppRequest>;

export const AppSaved = z.object({
  success: z.literal(true),
  message: z.string(),
  application: WebApplication,
});
export type AppSaved = z.infer<typeof AppSaved>;

export const RemoveAppResponse = z.object({
  success: z.literal(true),
  filesRemoved: z.boolean(),
  deploymentPath: z.string(),
});

const tags = ['web-applications'];

export const webAppRoutes = {
  list: defineRoute({
    method: 'GET',
    path: 'web/applications',
    summary:
      'Web applications, paged (?q= matches name, domain or description; ?type=; ?status=; keyset ?cursor=); total in X-Total-Count',
    tags,
    query: AppListQuery,
    response: z.array(WebApplicationSummary),
  }),
  capabilities: defineRoute({
    method: 'GET',
    path: 'web/capabilities/applications',
    summary: 'Application types and fields this server supports, with the reason for the others',
    tags,
    response: WebAppCapabilities,
  }),
  get: defineRoute({
    method: 'GET',
    path: 'web/applications/:name',
    summary: 'One web application, with its environment variables',
    tags,
    params: nameParam,
    response: WebApplication,
  }),
  create: defineRoute({
    method: 'POST',
    path: 'web/applications/add',
    summary:
      'Create a web application: its virtual host is made (or reused) and proxies to the app once deployed',
    tags,
    body: WebApplicationInput,
    response: AppSaved,
    audit: 'web.app.create',
  }),
  update: defineRoute({
    method: 'POST',
    path: 'web/applications/update/:name',
    summary: 'Change a web application (the running release keeps its environment until the next deploy)',
    tags,
    params: nameParam,
    body: WebApplicationInput,
    response: AppSaved,
    audit: 'web.app.update',
  }),
  remove: defineRoute({
    method: 'POST',
    path: 'web/applications/remove/:name',
    summary:
      'Delete a web application: its processes are stopped, its virtual host deleted; keepFiles keeps its releases',
    tags,
    params: nameParam,
    body: RemoveAppRequest,
    response: RemoveAppResponse,
    audit: 'web.app.remove',
  }),
  deploy: defineRoute({
    method: 'POST',
    path: 'web/applications/deploy/:name',
    summary:
      'Deploy as a job: clone at the ref, build, start on a fresh port, health-check, then switch Apache and stop the old release',
    tags,
    params: nameParam,
    body: DeployRequest,
    response: JobAccepted,
    accepted: JobAccepted,
    audit: 'web.app.deploy',
  }),
  rollback: defineRoute({
    method: 'POST',
    path: 'web/applications/rollback/:name',
    summary:
      'Run an earlier release again with its own environment, through the same health-gated switch (a job)',
    tags,
    params: nameParam,
    body: RollbackRequest,
    response: JobAccepted,
    accepted: JobAccepted,
    audit: 'web.app.rollback',
  }),
  start: defineRoute({
    method: 'POST',
    path: 'web/applications/start/:name',
    summary: 'Start the live release and serve it',
    tags,
    params: nameParam,
    response: AppSaved,
    audit: 'web.app.start',
  }),
  stop: defineRoute({
    method: 'POST',
    path: 'web/applications/stop/:name',
    summary: 'Stop the app: Apache answers 503 for its domain',
    tags,
    params: nameParam,
    response: AppSaved,
    audit: 'web.app.stop',
  }),
  restart: defineRoute({
    method: 'POST',
    path: 'web/applications/restart/:name',
    summary: 'Restart the live release',
    tags,
    params: nameParam,
    response: AppSaved,
    audit: 'web.app.restart',
  }),
  toggle: defineRoute({
    method: 'POST',
    path: 'web/applications/toggle/:name',
    summary: 'Spec §4 toggle: active -> stop (inactive), anything else -> start (active)',
    tags,
    params: nameParam,
    response: AppSaved,
    audit: 'web.app.toggle',
  }),
  releases: defineRoute({
    method: 'GET',
    path: 'web/applications/:name/releases',
    summary: 'The release history, newest first (no build log, no environment values)',
    tags,
    params: nameParam,
    response: z.array(WebAppRelease),
  }),
  release: defineRoute({
    method: 'GET',
    path: 'web/applications/:name/releases/:id',
    summary: 'One release with its build log',
    tags,
    params: releaseParams,
    response: WebAppReleaseDetail,
  }),
  deployLog: defineRoute({
    method: 'GET',
    path: 'web/applications/:name/deploy-log',
    summary:
      "Lines of a deploy job log with their sequence numbers (?after= resumes; the job's event counts.logLines says the last seq stored)",
    tags,
    params: nameParam,
    query: DeployLogQuery,
    response: DeployLog,
  }),
};
