import { z } from 'zod';
import { fieldMessages } from '../../messages.ts';
import {
  formatInvalid,
  hostNameField,
  intField,
  ipListField,
  lineField,
  optionalPathField,
  pathField,
  requiredLine,
  textField,
} from '../fields.ts';
import { BACKUP_FREQUENCIES } from '../vhosts.ts';
import {
  APP_CACHE_STRATEGIES,
  APP_ENVIRONMENTS,
  APP_LOG_LEVELS,
  APP_PROCESS_TYPES,
  APP_TYPES,
  type AppType,
  isPhpAppType,
  PHP_ENV_UNSAFE_RE,
} from './constants.ts';
import { appLabels, appMessages } from './labels.ts';

const L = appLabels;

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
