import { z } from 'zod';
import { BACKUP_FREQUENCIES } from '../vhosts.ts';
import {
  APP_CACHE_STRATEGIES,
  APP_ENVIRONMENTS,
  APP_LOG_LEVELS,
  APP_STATUSES,
  APP_TYPES,
} from './constants.ts';

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
