import path from 'node:path';
import { z } from 'zod';

const bool = z
  .enum(['0', '1', 'true', 'false', 'yes', 'no'], { error: 'must be 1/0, true/false or yes/no' })
  .transform((v) => v === '1' || v === 'true' || v === 'yes');

const wholeNumber = (what: string, min: number, max?: number) => {
  const range = max === undefined ? `at least ${min}` : `from ${min} to ${max}`;
  const message = `must be a whole number ${what}${range}`;
  return z
    .string()
    .regex(/^\d{1,9}$/, message)
    .transform(Number)
    .pipe(
      z
        .number()
        .min(min, message)
        .max(max ?? Number.MAX_SAFE_INTEGER, message),
    );
};

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

/** Administrator passwords: the same floor the admin service enforces. */
export const ADMIN_PASSWORD_MIN = 8;

const EnvSchema = z.object({
  PORT: wholeNumber('', 0, 65535).default(8080),
  HOST: z.string().min(1).default('127.0.0.1'),
  MAILROOM_DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z
    .string()
    .regex(/^(postgres(ql)?:\/\/|sqlite:)/, 'must start with postgres://, postgresql:// or sqlite:')
    .optional(),
  MAILROOM_MAIL_DB_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must start with postgres:// or postgresql://')
    .optional(),
  MAILROOM_SESSION_IDLE_MINUTES: wholeNumber('of minutes ', 1).default(30),
  MAILROOM_SESSION_ABSOLUTE_HOURS: wholeNumber('of hours ', 1).default(12),
  MAILROOM_TRUST_PROXY: bool.default(false),
  MAILROOM_ROOT: z.string().min(1).optional(),
  MAILROOM_RELOAD: bool.default(false),
  MAILROOM_ADMIN_EMAIL: z.email({ error: 'must be a valid email address' }).optional(),
  MAILROOM_ADMIN_PASSWORD: z
    .string()
    .min(ADMIN_PASSWORD_MIN, `must be at least ${ADMIN_PASSWORD_MIN} characters`)
    .optional(),
  MAILROOM_WEB_DIST: z.string().optional(),
  MAILROOM_RUN_DAEMONS: bool.default(true),
  MAILROOM_SMTP_PORT: wholeNumber('', 1, 65535).optional(),
  MAILROOM_SUBMISSION_PORT: wholeNumber('', 1, 65535).optional(),
  MAILROOM_IMAP_PORT: wholeNumber('', 1, 65535).optional(),
  MAILROOM_IMAPS_PORT: wholeNumber('', 1, 65535).optional(),
  MAILROOM_DNS_PORT: wholeNumber('', 1, 65535).optional(),
  MAILROOM_RATE_LIMIT_IP: wholeNumber('of requests per minute ', 0).default(10000),
  MAILROOM_RATE_LIMIT_SESSION: wholeNumber('of requests per minute ', 0).default(6000),
  MAILROOM_PURGE_INTERVAL_SECONDS: wholeNumber('of seconds ', 10).default(600),
  MAILROOM_WORKERS: wholeNumber('', 1, 64).optional(),
  MAILROOM_MILTER_PORT: wholeNumber('', 1, 65535).optional(),
  MAILROOM_ACME_HTTP_PORT: wholeNumber('', 0, 65535).optional(),
  MAILROOM_HTTP_PORT: wholeNumber('', 1, 65535).optional(),
  MAILROOM_HTTPS_PORT: wholeNumber('', 1, 65535).optional(),
  MAILROOM_ACME_CA_FILE: z.string().min(1).optional(),
  MAILROOM_SSL_RENEWAL_TICK_SECONDS: wholeNumber('of seconds ', 1, 3600).default(60),
  MAILROOM_APP_SCALE_TICK_SECONDS: wholeNumber('of seconds ', 1, 3600).default(30),
  MAILROOM_JOB_STALE_SECONDS: wholeNumber('of seconds ', 5, 3600).default(30),
  LOG_LEVEL: z.enum(LOG_LEVELS, { error: `must be one of ${LOG_LEVELS.join(', ')}` }).default('info'),
});

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  /** PostgreSQL: the read-only role Postfix and Dovecot connect as (`mailroom db mail-role`). */
  mailDbUrl: string | undefined;
  sessionIdleMs: number;
  sessionAbsoluteMs: number;
  trustProxy: boolean;
  /** Where rendered system files go: `${dataDir}/root` by default, `/` in system mode. */
  hostRoot: string;
  /** Reload daemons after a good write (system mode). */
  reload: boolean;
  adminEmail: string | undefined;
  adminPassword: string | undefined;
  webDist: string;
  logLevel: string;
  /** Local mode: start and supervise the mail daemons and BIND from the rendered files. */
  runDaemons: boolean;
  /** Where the daemons listen: loopback high ports in local mode, the standard ones in system mode. */
  ports: DaemonPorts;
  /** General API rate limit: requests per window per client address and per session (0 = off). */
  rateLimit: { perIp: number; perSession: number; windowMs: number };
  /** How often expired sessions, old sign-in attempts and rate-limit counters are removed. */
  purgeIntervalMs: number;
  /**
   * A running job whose process has not beaten for this long belongs to a dead process: it is
   * marked interrupted, or queued again to resume (a bulk run). The heartbeat beats every 2 s.
   */
  jobStaleMs: number;
  /** Server processes sharing the port (cluster.ts); unset: two on a multi-core machine. */
  workers: number | undefined;
  /** ACME (features/ssl/acme): Mailroom's HTTP-01 listener and an extra CA trusted for directories. */
  acme: AcmeConfig;
  /**
   * Apache (features/web): where ports 80 and 443 of the virtual hosts are served; how often the
   * web applications' scaling rule is checked (30 s; tests shorten it).
   */
  web: { httpPort: number; httpsPort: number; scaleTickSeconds?: number };
}

/** Local mode serves the virtual hosts' ports 80 and 443 on these loopback ports. */
export const LOCAL_WEB_PORTS = { http: 8480, https: 8443 } as const;

export interface AcmeConfig {
  /** Port of the HTTP-01 challenge listener (80 in system mode, 2080 locally); null: off (0). */
  httpPort: number | null;
  /** PEM file of CA certificates trusted for the directory's HTTPS besides the system's (a private CA). */
  caFile: string | undefined;
  /**
   * How often the auto-renewal scheduler wakes to see whether a check is due (the SSL settings'
   * interval decides when one is): 60 s; tests shorten it.
   */
  renewalTickSeconds: number;
}

export interface DaemonPorts {
  smtp: number;
  submission: number;
  imap: number;
  imaps: number;
  dns: number;
  /** The mail filter's milter (rspamd proxy worker), loopback only. */
  milter: number;
}

/** Local mode (host root under the data folder) listens on 127.0.0.1 on these by default. */
export const LOCAL_PORTS: DaemonPorts = {
  smtp: 2525,
  submission: 2587,
  imap: 2143,
  imaps: 2993,
  dns: 2053,
  milter: 21332,
};
export const SYSTEM_PORTS: DaemonPorts = {
  smtp: 25,
  submission: 587,
  imap: 143,
  imaps: 993,
  dns: 53,
  milter: 11332,
};

export class ConfigError extends Error {}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = EnvSchema.safeParse(cleaned);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid environment settings:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  if (e.MAILROOM_MAIL_DB_URL && !e.DATABASE_URL?.startsWith('postgres'))
    throw new ConfigError(
      'Invalid environment settings:\n  MAILROOM_MAIL_DB_URL: only for PostgreSQL (DATABASE_URL is not postgres://)',
    );
  const dataDir = path.resolve(e.MAILROOM_DATA_DIR);
  const hostRoot = path.resolve(e.MAILROOM_ROOT ?? path.join(dataDir, 'root'));
  const base = hostRoot === '/' ? SYSTEM_PORTS : LOCAL_PORTS;
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir,
    databaseUrl: e.DATABASE_URL,
    mailDbUrl: e.MAILROOM_MAIL_DB_URL,
    sessionIdleMs: e.MAILROOM_SESSION_IDLE_MINUTES * 60_000,
    sessionAbsoluteMs: e.MAILROOM_SESSION_ABSOLUTE_HOURS * 3_600_000,
    trustProxy: e.MAILROOM_TRUST_PROXY,
    hostRoot,
    reload: e.MAILROOM_RELOAD,
    adminEmail: e.MAILROOM_ADMIN_EMAIL,
    adminPassword: e.MAILROOM_ADMIN_PASSWORD,
    webDist: path.resolve(e.MAILROOM_WEB_DIST ?? path.join(import.meta.dirname, '../../web/dist')),
    logLevel: e.LOG_LEVEL,
    runDaemons: e.MAILROOM_RUN_DAEMONS,
    workers: e.MAILROOM_WORKERS,
    ports: {
      smtp: e.MAILROOM_SMTP_PORT ?? base.smtp,
      submission: e.MAILROOM_SUBMISSION_PORT ?? base.submission,
      imap: e.MAILROOM_IMAP_PORT ?? base.imap,
      imaps: e.MAILROOM_IMAPS_PORT ?? base.imaps,
      dns: e.MAILROOM_DNS_PORT ?? base.dns,
      milter: e.MAILROOM_MILTER_PORT ?? base.milter,
    },
    rateLimit: {
      perIp: e.MAILROOM_RATE_LIMIT_IP,
      perSession: e.MAILROOM_RATE_LIMIT_SESSION,
      windowMs: 60_000,
    },
    purgeIntervalMs: e.MAILROOM_PURGE_INTERVAL_SECONDS * 1000,
    jobStaleMs: e.MAILROOM_JOB_STALE_SECONDS * 1000,
    web: {
      httpPort: e.MAILROOM_HTTP_PORT ?? (hostRoot === '/' ? 80 : LOCAL_WEB_PORTS.http),
      httpsPort: e.MAILROOM_HTTPS_PORT ?? (hostRoot === '/' ? 443 : LOCAL_WEB_PORTS.https),
      scaleTickSeconds: e.MAILROOM_APP_SCALE_TICK_SECONDS,
    },
    acme: {
      ...acmeConfig(e.MAILROOM_ACME_HTTP_PORT, hostRoot === '/', e.MAILROOM_ACME_CA_FILE),
      renewalTickSeconds: e.MAILROOM_SSL_RENEWAL_TICK_SECONDS,
    },
  };
}

/** Local mode answers HTTP-01 on a high loopback-friendly port; 0 turns the listener off. */
export const LOCAL_ACME_HTTP_PORT = 2080;

function acmeConfig(
  port: number | undefined,
  system: boolean,
  caFile: string | undefined,
): Omit<AcmeConfig, 'renewalTickSeconds'> {
  const httpPort = port ?? (system ? 80 : LOCAL_ACME_HTTP_PORT);
  return { httpPort: httpPort === 0 ? null : httpPort, caFile: caFile ? path.resolve(caFile) : undefined };
}
