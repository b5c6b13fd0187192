import { z } from 'zod';
import { fieldMessages } from '../../messages.ts';
import {
  hostNameField,
  intField,
  ipListField,
  lineField,
  listenAddressField,
  optionalInt,
  optionalPathField,
  pathField,
  sizeField,
  textField,
} from '../fields.ts';
import {
  BACKUP_FREQUENCIES,
  PHP_VERSIONS,
  VHOST_STATUSES,
  vhostLabels,
  type VhostStatus,
  webMessages,
} from './labels.ts';

const L = vhostLabels;

// ---------- fields ----------

const portField = (label: string) => intField(label, 1, 65535);
const phpSize = (label: string) => sizeField(label);

/** The virtual host fields an administrator edits (API: lists as arrays). */
const vhostFields = z.object({
  domain: hostNameField(L.domain),
  documentRoot: pathField(L.documentRoot),
  serverName: hostNameField(L.serverName),
  serverAlias: z
    .array(hostNameField(L.serverAlias), { error: `${L.serverAlias} must be a list of host names` })
    .max(100, `${L.serverAlias} must have at most 100 names`)
    .default([]),
  status: z.enum(VHOST_STATUSES, { error: fieldMessages.required(L.status) }).default('active'),
  ipAddress: listenAddressField(L.ipAddress).default('*'),
  port: portField(L.port).default(80),
  sslEnabled: z.boolean().default(false),
  sslPort: optionalInt(L.sslPort, 1, 65535).default(443),
  /** A certificate of the SSL area (its id); null: the paths below. */
  sslCertificateId: z.number().int().positive().nullable().default(null),
  sslCertificate: optionalPathField(L.sslCertificate).default(''),
  sslPrivateKey: optionalPathField(L.sslPrivateKey).default(''),
  sslCertificateChain: optionalPathField(L.sslCertificateChain).default(''),
  redirectHttpToHttps: z.boolean().default(false),
  enableGzip: z.boolean().default(true),
  enableCaching: z.boolean().default(true),
  cacheExpiry: intField(L.cacheExpiry, 1).default(3600),
  enableRewrite: z.boolean().default(false),
  enablePhp: z.boolean().default(true),
  phpVersion: z.enum(PHP_VERSIONS, { error: fieldMessages.required(L.phpVersion) }).default('8.3'),
  phpMemoryLimit: phpSize(L.phpMemoryLimit).default('128M'),
  phpMaxExecutionTime: intField(L.phpMaxExecutionTime, 1).default(30),
  phpUploadMaxFilesize: phpSize(L.phpUploadMaxFilesize).default('2M'),
  phpPostMaxSize: phpSize(L.phpPostMaxSize).default('8M'),
  enableSecurityHeaders: z.boolean().default(true),
  enableRateLimiting: z.boolean().default(false),
  rateLimitRequests: intField(L.rateLimitRequests, 1).default(100),
  rateLimitWindow: intField(L.rateLimitWindow, 1).default(60),
  enableAccessControl: z.boolean().default(false),
  allowedIps: ipListField(L.allowedIps).default([]),
  blockedIps: ipListField(L.blockedIps).default([]),
  enableMaintenanceMode: z.boolean().default(false),
  maintenanceMessage: lineField(L.maintenanceMessage, 2000).default(''),
  enableBackup: z.boolean().default(true),
  backupFrequency: z
    .enum(BACKUP_FREQUENCIES, { error: fieldMessages.required(L.backupFrequency) })
    .default('weekly'),
  backupRetention: intField(L.backupRetention, 1).default(30),
  customDirectives: textField(L.customDirectives).default(''),
});

type VhostRuleValues = Pick<
  z.output<typeof vhostFields>,
  | 'sslEnabled'
  | 'sslPort'
  | 'port'
  | 'redirectHttpToHttps'
  | 'sslCertificateId'
  | 'sslCertificate'
  | 'sslPrivateKey'
>;
function vhostRules(v: VhostRuleValues, ctx: z.RefinementCtx): void {
  if (v.sslEnabled && v.sslPort === v.port) {
    ctx.addIssue({ code: 'custom', path: ['sslPort'], message: webMessages.portClash(v.port) });
  }
  if (v.redirectHttpToHttps && !v.sslEnabled) {
    ctx.addIssue({
      code: 'custom',
      path: ['redirectHttpToHttps'],
      message: webMessages.sslRequiredForRedirect,
    });
  }
  // No certificate at all: the SSL settings' default certificate serves the host; a certificate
  // path without its key (or the reverse) is refused.
  if (v.sslEnabled && v.sslCertificateId === null && (v.sslCertificate === '') !== (v.sslPrivateKey === '')) {
    ctx.addIssue({ code: 'custom', path: ['sslCertificateId'], message: webMessages.certificateRequired });
  }
}

/** Every field with its spec default (forms, tests, renderers). */
export const VirtualHostInput = vhostFields.superRefine(vhostRules);
export type VirtualHostInput = z.input<typeof VirtualHostInput>;
export type VirtualHostValues = z.output<typeof VirtualHostInput>;

/**
 * The PHP limits a virtual host shares with the server-wide PHP defaults (Server Configuration,
 * PHP). The server-wide values are the defaults of a new host and the most any host may ask for.
 */
export const PHP_LIMIT_FIELDS = [
  'phpMemoryLimit',
  'phpMaxExecutionTime',
  'phpUploadMaxFilesize',
  'phpPostMaxSize',
] as const;
export type PhpLimitField = (typeof PHP_LIMIT_FIELDS)[number];
export type PhpLimits = Pick<VirtualHostValues, PhpLimitField>;

/**
 * The body of `web/vhosts/add` and `web/vhosts/update/:domain`: the PHP limits may be left out.
 * Left out on create: the server-wide PHP defaults; on update: the host keeps its own.
 */
export const VirtualHostRequest = vhostFields
  .extend({
    phpMemoryLimit: phpSize(L.phpMemoryLimit).optional(),
    phpMaxExecutionTime: intField(L.phpMaxExecutionTime, 1).optional(),
    phpUploadMaxFilesize: phpSize(L.phpUploadMaxFilesize).optional(),
    phpPostMaxSize: phpSize(L.phpPostMaxSize).optional(),
  })
  .superRefine(vhostRules);
export type VirtualHostRequest = z.output<typeof VirtualHostRequest>;

/** A php.ini size (`128M`, `2M`, `1G`, bytes) in bytes, as PHP reads it (K/M/G are powers of 1024). */
export function phpSizeBytes(v: string): number {
  const m = /^(\d+)([KMG]?)$/i.exec(v.trim());
  if (!m) return Number.NaN;
  const unit = { '': 1, K: 1024, M: 1024 ** 2, G: 1024 ** 3 }[m[2]!.toUpperCase() as '' | 'K' | 'M' | 'G'];
  return Number(m[1]) * unit;
}

/** A limit as a number to compare (sizes in bytes, seconds as they are). */
const limitValue = (f: PhpLimitField, v: string | number) =>
  f === 'phpMaxExecutionTime' ? Number(v) : phpSizeBytes(String(v));

/**
 * The ceiling rule: the PHP limits of a host (with Enable PHP) that ask more than the server-wide
 * ones, each with its message naming the server's value. Empty: within the limits.
 */
export function phpLimitsAbove(
  v: PhpLimits & { enablePhp: boolean },
  server: PhpLimits,
): { field: PhpLimitField; message: string }[] {
  if (!v.enablePhp) return [];
  return PHP_LIMIT_FIELDS.filter((f) => limitValue(f, v[f]) > limitValue(f, server[f])).map((f) => ({
    field: f,
    message: webMessages.phpAboveServer(L[f], server[f], f === 'phpMaxExecutionTime' ? ' s' : ''),
  }));
}

/** Whether a host's own limit asks more than a server-wide value (the settings' side of the rule). */
export const phpLimitAbove = (f: PhpLimitField, host: string | number, server: string | number) =>
  limitValue(f, host) > limitValue(f, server);

/** Spec 3 §9 defaults of a new virtual host (domain, documentRoot and serverName are the caller's). */
export const VHOST_DEFAULTS = {
  serverAlias: [] as string[],
  status: 'active' as VhostStatus,
  ipAddress: '*',
  port: 80,
  sslEnabled: false,
  sslPort: 443,
  sslCertificateId: null as number | null,
  sslCertificate: '',
  sslPrivateKey: '',
  sslCertificateChain: '',
  redirectHttpToHttps: false,
  enableGzip: true,
  enableCaching: true,
  cacheExpiry: 3600,
  enableRewrite: false,
  enablePhp: true,
  phpVersion: '8.3' as (typeof PHP_VERSIONS)[number],
  phpMemoryLimit: '128M',
  phpMaxExecutionTime: 30,
  phpUploadMaxFilesize: '2M',
  phpPostMaxSize: '8M',
  enableSecurityHeaders: true,
  enableRateLimiting: false,
  rateLimitRequests: 100,
  rateLimitWindow: 60,
  enableAccessControl: false,
  allowedIps: [] as string[],
  blockedIps: [] as string[],
  enableMaintenanceMode: false,
  maintenanceMessage: '',
  enableBackup: true,
  backupFrequency: 'weekly' as (typeof BACKUP_FREQUENCIES)[number],
  backupRetention: 30,
  customDirectives: '',
};
