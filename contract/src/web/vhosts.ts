import { z } from 'zod';
import { ListQuery, OkResponse } from '../common.ts';
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
  listenAddressField,
  optionalInt,
  optionalPathField,
  pathField,
  sizeField,
  splitList,
  textField,
} from './fields.ts';

/** Spec 3 §3.1: status of a virtual host. */
export const VHOST_STATUSES = ['active', 'inactive', 'maintenance'] as const;
export type VhostStatus = (typeof VHOST_STATUSES)[number];
/** Spec 3 §3.1: the PHP versions a site may ask for (only installed ones are offered: capabilities). */
export const PHP_VERSIONS = ['8.3', '8.2', '8.1', '8.0', '7.4'] as const;
export const BACKUP_FREQUENCIES = ['daily', 'weekly', 'monthly', 'never'] as const;

/** Spec 3 §2.2 status filter (value '' = All Status). */
export const VHOST_STATUS_FILTER = [
  { value: '', label: 'All Status' },
  { value: 'active', label: 'Active' },
  { value: 'inactive', label: 'Inactive' },
  { value: 'maintenance', label: 'Maintenance' },
] as const;

/** Sections of the Add/Edit Virtual Host modal, in the spec's order (§2.2). */
export const VHOST_SECTIONS = [
  'Basic',
  'SSL',
  'Performance',
  'PHP',
  'Security',
  'Maintenance',
  'Custom Directives',
] as const;

export const vhostLabels = {
  domain: 'Domain',
  documentRoot: 'Document Root',
  serverName: 'Server Name',
  serverAlias: 'Server Aliases',
  status: 'Status',
  ipAddress: 'IP Address',
  port: 'Port',
  sslEnabled: 'Enable SSL',
  sslPort: 'SSL Port',
  sslCertificateId: 'Certificate',
  sslCertificate: 'SSL Certificate',
  sslPrivateKey: 'SSL Private Key',
  sslCertificateChain: 'SSL Certificate Chain',
  redirectHttpToHttps: 'Redirect HTTP to HTTPS',
  enableGzip: 'Enable Gzip',
  enableCaching: 'Enable Caching',
  cacheExpiry: 'Cache Expiry',
  enableRewrite: 'Enable Rewrite',
  enablePhp: 'Enable PHP',
  phpVersion: 'PHP Version',
  phpMemoryLimit: 'PHP Memory Limit',
  phpMaxExecutionTime: 'PHP Max Execution Time',
  phpUploadMaxFilesize: 'PHP Upload Max Filesize',
  phpPostMaxSize: 'PHP Post Max Size',
  enableSecurityHeaders: 'Enable Security Headers',
  enableRateLimiting: 'Enable Rate Limiting',
  rateLimitRequests: 'Rate Limit Requests',
  rateLimitWindow: 'Rate Limit Window',
  enableAccessControl: 'Enable Access Control',
  allowedIps: 'Allowed IPs',
  blockedIps: 'Blocked IPs',
  enableMaintenanceMode: 'Enable Maintenance Mode',
  maintenanceMessage: 'Maintenance Message',
  enableBackup: 'Enable Backup',
  backupFrequency: 'Backup Frequency',
  backupRetention: 'Backup Retention',
  customDirectives: 'Custom Directives',
} as const;
export type VhostField = keyof typeof vhostLabels;
const L = vhostLabels;

export const webMessages = {
  saved: 'Virtual host saved successfully!',
  deleteConfirm: (domain: string) => `Are you sure you want to delete the virtual host "${domain}"?`,
  loadFailed: 'Failed to load virtual hosts',
  dashboardLoadFailed: 'Failed to load web management data',
  empty: 'No virtual hosts found',
  searchPlaceholder: 'Search virtual hosts...',
  vhostExists: (domain: string) => `A virtual host ${domain} already exists`,
  nameInUse: (name: string, domain: string) => `${name} is already served by the virtual host ${domain}`,
  vhostNotFound: (domain: string) => `Virtual host ${domain} was not found`,
  documentRootOutside: (roots: readonly string[]) =>
    `Document Root must be inside ${roots.join(' or ')} (symbolic links resolved)`,
  certificateNotFound: 'The chosen certificate was not found in the SSL area',
  certificateNotCovering: (names: readonly string[]) => `The certificate does not cover ${names.join(', ')}`,
  certificateKeyMismatch: 'The certificate does not match its private key',
  certificateFileUnreadable: (path: string) => `No readable PEM certificate or key at ${path}`,
  certificateRequired: 'Choose a certificate from the SSL area, or give the certificate and key paths',
  sslRequiredForRedirect: 'Redirect HTTP to HTTPS needs SSL enabled',
  directiveForbidden: (line: number, what: string) =>
    `Line ${line}: ${what} is not allowed in a virtual host's custom directives`,
  apacheRefused: 'Apache refused the configuration',
  moduleMissing: (module: string, pkg: string) =>
    `The Apache module ${module} is not installed (Debian package ${pkg})`,
  phpNotInstalled: (version: string) => `PHP ${version} is not installed on this server (php${version}-fpm)`,
  portClash: (port: number) => `Port ${port} is used for both HTTP and HTTPS`,
  bareName: 'A bare name is not accepted: give a domain such as www.example.com',
  phpAboveServer: (label: string, limit: string | number, unit = '') =>
    `${label} must be at most ${limit}${unit}, the server-wide ${label} (Server Configuration, PHP)`,
} as const;

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
  if (v.sslEnabled && v.sslCertificateId === null && (v.sslCertificate === '' || v.sslPrivateKey === '')) {
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

/** A stored virtual host, as the API answers it. */
export const VirtualHost = z.object({
  id: z.number(),
  domain: z.string(),
  documentRoot: z.string(),
  serverName: z.string(),
  serverAlias: z.array(z.string()),
  status: z.enum(VHOST_STATUSES),
  lastModified: z.string(),
  /** Requests in the last 24 hours, from Apache's access log (0 until the roll-up has figures). */
  traffic: z.number(),
  /** Average response time in ms over the last 24 hours (null: no requests). */
  responseTime: z.number().nullable(),
  ipAddress: z.string(),
  port: z.number(),
  sslEnabled: z.boolean(),
  sslPort: z.number().nullable(),
  sslCertificateId: z.number().nullable(),
  sslCertificate: z.string(),
  sslPrivateKey: z.string(),
  sslCertificateChain: z.string(),
  redirectHttpToHttps: z.boolean(),
  enableGzip: z.boolean(),
  enableCaching: z.boolean(),
  cacheExpiry: z.number(),
  enableRewrite: z.boolean(),
  enablePhp: z.boolean(),
  phpVersion: z.enum(PHP_VERSIONS),
  phpMemoryLimit: z.string(),
  phpMaxExecutionTime: z.number(),
  phpUploadMaxFilesize: z.string(),
  phpPostMaxSize: z.string(),
  enableSecurityHeaders: z.boolean(),
  enableRateLimiting: z.boolean(),
  rateLimitRequests: z.number(),
  rateLimitWindow: z.number(),
  enableAccessControl: z.boolean(),
  allowedIps: z.array(z.string()),
  blockedIps: z.array(z.string()),
  enableMaintenanceMode: z.boolean(),
  maintenanceMessage: z.string(),
  enableBackup: z.boolean(),
  backupFrequency: z.enum(BACKUP_FREQUENCIES),
  backupRetention: z.number(),
  customDirectives: z.string(),
  /** The Unix user the site's files (and its PHP pool) belong to. */
  siteUser: z.string(),
  /** Whether the site's configuration is live (false: saved, the last apply failed; see GET apply). */
  live: z.boolean(),
});
export type VirtualHost = z.infer<typeof VirtualHost>;

// ---------- the form (lists as comma-separated text, spec §3.1) ----------

export type VhostFormValues = Omit<
  VirtualHostValues,
  'serverAlias' | 'allowedIps' | 'blockedIps' | 'sslPort'
> & {
  serverAlias: string;
  allowedIps: string;
  blockedIps: string;
  sslPort: number | '';
};

/** Form defaults for Add Virtual Host (spec §9). */
export const VHOST_FORM_DEFAULTS: VhostFormValues = {
  ...VHOST_DEFAULTS,
  domain: '',
  documentRoot: '',
  serverName: '',
  serverAlias: '',
  allowedIps: '',
  blockedIps: '',
};

/** Fills the form from a stored host (edit mode). */
export const vhostToForm = (v: VirtualHost): VhostFormValues => ({
  ...VHOST_FORM_DEFAULTS,
  ...Object.fromEntries(Object.keys(VHOST_FORM_DEFAULTS).map((k) => [k, v[k as keyof VirtualHost]])),
  serverAlias: joinList(v.serverAlias),
  allowedIps: joinList(v.allowedIps),
  blockedIps: joinList(v.blockedIps),
  sslPort: v.sslPort ?? '',
});

/** The request body the form sends (the server validates it with `VirtualHostInput`). */
export const vhostFormToInput = (f: VhostFormValues): VirtualHostInput => ({
  ...f,
  serverAlias: splitList(f.serverAlias),
  allowedIps: splitList(f.allowedIps),
  blockedIps: splitList(f.blockedIps),
  sslPort: f.sslPort === '' ? null : f.sslPort,
});

/**
 * The form's schema (Mantine useForm + zod resolver): form values -> the request body, checked by
 * `VirtualHostInput` with the server's messages (issue paths are the form's field names).
 */
export const VirtualHostFormSchema = z
  .custom<VhostFormValues>((v) => typeof v === 'object' && v !== null)
  .transform((f) => vhostFormToInput(f))
  .pipe(VirtualHostInput);

/** Validates one form field for the screen, with the server's messages (null: fine). */
export function vhostFormErrors(f: VhostFormValues): Partial<Record<VhostField, string>> {
  const r = VirtualHostInput.safeParse(vhostFormToInput(f));
  const out: Partial<Record<VhostField, string>> = {};
  if (r.success) return out;
  for (const issue of r.error.issues) {
    const k = issue.path[0] as VhostField | undefined;
    if (k && !out[k]) out[k] = issue.message;
  }
  return out;
}

// ---------- requests ----------

export const VHOST_LIST_DEFAULT_LIMIT = 50;
export const VHOST_LIST_MAX_LIMIT = 500;
export const VHOST_SORT_FIELDS = ['domain', 'documentRoot', 'status', 'lastModified'] as const;
export const VhostListQuery = ListQuery.extend({
  limit: queryInt(1, VHOST_LIST_MAX_LIMIT, 'limit').optional(),
  sort: z
    .enum([...VHOST_SORT_FIELDS, ...VHOST_SORT_FIELDS.map((f) => `-${f}` as const)], {
      error: `sort must be one of ${VHOST_SORT_FIELDS.join(', ')}, optionally prefixed with -`,
    })
    .optional(),
  status: z.enum(VHOST_STATUSES, { error: `status must be one of ${VHOST_STATUSES.join(', ')}` }).optional(),
});
export type VhostListQuery = z.input<typeof VhostListQuery>;

const domainParam = z.object({ domain: hostNameField(L.domain) });

export const VhostStatusRequest = z.object({
  status: z.enum(VHOST_STATUSES, { error: `status must be one of ${VHOST_STATUSES.join(', ')}` }),
});
/** Spec §4 toggle: active -> inactive, anything else -> active. */
export const toggledStatus = (s: VhostStatus): VhostStatus => (s === 'active' ? 'inactive' : 'active');

export const RemoveVhostRequest = z.object({
  /** Keep the document root's files (default) or delete them with the host. */
  keepFiles: z.boolean({ error: 'keepFiles must be true or false' }).default(true),
});
export type RemoveVhostRequest = z.input<typeof RemoveVhostRequest>;

/** What a save did: the host as stored, and whether the server now serves it. */
export const VhostSaved = z.object({
  success: z.literal(true),
  message: z.string(),
  vhost: VirtualHost,
});
export type VhostSaved = z.infer<typeof VhostSaved>;

export const RemoveVhostResponse = z.object({
  success: z.literal(true),
  /** Whether the document root was deleted (false: kept). */
  filesRemoved: z.boolean(),
  documentRoot: z.string(),
  /**
   * The site's Unix user (`mr-site-<id>`, its PHP-FPM pool's): removed with the site, after kept
   * files were given to root; null when Mailroom does not run as root (there is none).
   */
  siteUser: z.string().nullable().optional(),
});

/** Catalogue `web/domains`: the hosted web domains. */
export const WebDomain = z.object({
  domain: z.string(),
  status: z.enum(VHOST_STATUSES),
  sslEnabled: z.boolean(),
  documentRoot: z.string(),
});
export const AddWebDomainRequest = z.object({ domain: hostNameField(L.domain) });

/** The one-line format check for the screen (a bare name included). */
export const webHostNameMessage = formatInvalid;

const tags = ['web'];

export const webVhostRoutes = {
  list: defineRoute({
    method: 'GET',
    path: 'web/vhosts',
    summary:
      'Virtual hosts, paged (?q= matches domain or document root; ?status=; keyset ?cursor=); total in X-Total-Count',
    tags,
    query: VhostListQuery,
    response: z.array(VirtualHost),
    access: 'domain',
  }),
  get: defineRoute({
    method: 'GET',
    path: 'web/vhosts/:domain',
    summary: 'One virtual host',
    tags,
    params: domainParam,
    response: VirtualHost,
    access: 'domain',
    domainFields: ['params.domain'],
  }),
  create: defineRoute({
    method: 'POST',
    path: 'web/vhosts/add',
    summary:
      "Create a virtual host: validated, its file rendered and checked by Apache, reloaded and probed (422 with Apache's words when refused)",
    tags,
    body: VirtualHostRequest,
    response: VhostSaved,
    audit: 'web.vhost.create',
    access: 'domain',
    domainFields: ['body.domain'],
  }),
  update: defineRoute({
    method: 'POST',
    path: 'web/vhosts/update/:domain',
    summary: 'Change a virtual host (one file rewritten, one reload)',
    tags,
    params: domainParam,
    body: VirtualHostRequest,
    response: VhostSaved,
    audit: 'web.vhost.update',
    access: 'domain',
    domainFields: ['params.domain', 'body.domain'],
  }),
  setStatus: defineRoute({
    method: 'POST',
    path: 'web/vhosts/status/:domain',
    summary: 'Set a virtual host active, inactive (not served: 503) or in maintenance (503 + Retry-After)',
    tags,
    params: domainParam,
    body: VhostStatusRequest,
    response: VhostSaved,
    audit: 'web.vhost.status',
    access: 'domain',
    domainFields: ['params.domain'],
  }),
  remove: defineRoute({
    method: 'POST',
    path: 'web/vhosts/remove/:domain',
    summary: 'Delete a virtual host; keepFiles (default true) keeps its document root',
    tags,
    params: domainParam,
    body: RemoveVhostRequest,
    response: RemoveVhostResponse,
    audit: 'web.vhost.remove',
    access: 'domain',
    domainFields: ['params.domain'],
  }),
  // The shared call catalogue's web/domains* calls (spec 1 §7).
  domains: defineRoute({
    method: 'GET',
    path: 'web/domains',
    summary: 'The hosted web domains (one per virtual host)',
    tags,
    response: z.array(WebDomain),
    access: 'domain',
  }),
  addDomain: defineRoute({
    method: 'POST',
    path: 'web/domains/add',
    summary: 'Host a domain: a virtual host with the spec defaults (document root under the web root)',
    tags,
    body: AddWebDomainRequest,
    response: OkResponse,
    audit: 'web.domain.add',
    access: 'domain',
    domainFields: ['body.domain'],
  }),
  removeDomain: defineRoute({
    method: 'POST',
    path: 'web/domains/remove/:domain',
    summary: 'Stop hosting a domain: its virtual host is deleted, its files are kept',
    tags,
    params: domainParam,
    response: OkResponse,
    audit: 'web.domain.remove',
    access: 'domain',
    domainFields: ['params.domain'],
  }),
};
