import { z } from 'zod';
import { JobAccepted } from './jobs.ts';
import { ListQuery, OkResponse } from './common.ts';
import { DaemonStatus } from './daemons.ts';
import { fieldMessages } from './messages.ts';
import { defineRoute } from './route.ts';
import { domainField, emailField, passwordField, queryInt, requiredInt, strictNumber } from './validators.ts';

/** Forms speak MB, the API speaks bytes: 1 MB = 1024² bytes; a quota of 0 means unlimited. */
export const MB = 1024 * 1024;
export const mbToBytes = (mb: number): number => Math.round(mb * MB);
export const bytesToMb = (bytes: number): number => bytes / MB;

/** Largest quota the API accepts (1 PiB), so byte counts stay exact in JSON numbers. */
export const MAX_QUOTA_BYTES = 1024 ** 5;

export const MAILBOX_STATUSES = ['active', 'suspended'] as const;
export const ALIAS_STATUSES = ['active', 'disabled'] as const;

/** Default and largest page of a mail list; 100k mailboxes never travel in one answer. */
export const MAIL_LIST_DEFAULT_LIMIT = 100;
export const MAIL_LIST_MAX_LIMIT = 1000;

/** Dashboard: the top 5 mailboxes by usage percent (§9); the usage bar turns red above 80 %. */
export const TOP_USAGE_COUNT = 5;
export const USAGE_WARNING_PERCENT = 80;

export const mailMessages = {
  mailboxExists: (email: string) => `A mailbox ${email} already exists`,
  mailboxNotFound: (email: string) => `Mailbox ${email} was not found`,
  aliasExists: (source: string) => `An alias for ${source} already exists`,
  aliasNotFound: (source: string) => `Alias ${source} was not found`,
  aliasRequired: (source: string) =>
    `${source} is a required address (RFC 2142, DMARC reports): change its destination instead`,
  aliasIsMailbox: (source: string) => `${source} is a mailbox; an alias cannot use the same address`,
  mailboxIsAlias: (email: string) => `${email} is an alias source; a mailbox cannot use the same address`,
  importRaced: (address: string) =>
    `${address} was taken while the import ran; nothing was imported. Run the import again.`,
  aliasLoop: (chain: string[]) => `This alias would create a loop: ${chain.join(' → ')}`,
  aliasSelf: 'Destination Email must differ from Source Email',
  quotaAboveMax: (maxMb: number) => `Quota must be at most ${maxMb} MB (Max Quota)`,
  defaultAboveMax: 'Default Quota must not exceed Max Quota',
  mxRequired: 'At least one MX record is required',
  staleSettings: 'The mail settings were changed by someone else. Reload them and try again.',
  domainInUse: (domain: string) => `Domain ${domain} is still used by mailboxes or aliases`,
  domainExists: (domain: string) => `Domain ${domain} already exists`,
  domainNotFound: (domain: string) => `Domain ${domain} was not found`,
  noLogs: 'No mail log is readable on this server (looked for /var/log/mail.log and the systemd journal).',
  importMissingColumns: 'The CSV needs a header row with the columns source and destination',
  mailboxImportMissingColumns: 'The CSV needs a header row with the columns email and password',
  domainUnknown: (domain: string) =>
    `${domain} is not a mail domain yet: add it under Mail → Domains, or choose to create it`,
  catchAllExists: (domain: string) => `A catch-all alias for @${domain} already exists`,
  settingsSaved: 'Mail settings saved successfully!',
} as const;

// ---------- fields ----------

const quotaBytes = strictNumber(
  z
    .number({ error: 'Quota must be a number' })
    .int('Quota must be a whole number of bytes')
    .min(0, 'Quota must be at least 0')
    .max(MAX_QUOTA_BYTES, `Quota must be at most ${MAX_QUOTA_BYTES} bytes`),
);

/** One or more destination addresses, comma separated; each must be a valid email. */
export const destinationField = (label: string) => {
  // Built once per field: making a zod schema per address costs ~60 µs, too slow for imports.
  const one = emailField(label);
  return z
    .string({ error: fieldMessages.required(label) })
    .trim()
    .min(1, fieldMessages.required(label))
    .max(8000, `${label} must be at most 8000 characters`)
    .superRefine((value, ctx) => {
      const parts = value.split(',').map((p) => p.trim());
      if (parts.some((p) => p === '')) {
        ctx.addIssue({ code: 'custom', message: fieldMessages.email });
        return;
      }
      for (const p of parts) {
        if (!one.safeParse(p).success) {
          ctx.addIssue({ code: 'custom', message: fieldMessages.email });
          return;
        }
      }
    })
    .transform((value) => [...new Set(value.split(',').map((p) => p.trim().toLowerCase()))].join(','));
};

/** Splits a stored destination list into its addresses. */
export const splitDestinations = (destination: string): string[] =>
  destination
    .split(',')
    .map((p) => p.trim())
    .filter((p) => p !== '');

/** `@domain`: a catch-all alias source (mail to any unknown address of the domain). */
export const CATCH_ALL_RE = /^@(?=.{1,253}$)([a-zA-Z0-9]([a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?\.)+[a-zA-Z]{2,}$/;
export const isCatchAll = (source: string): boolean => source.startsWith('@');

/** An alias source: an address, or `@domain` for the domain's catch-all. */
export const aliasSourceField = (label: string) => {
  const email = emailField(label);
  return z
    .string({ error: fieldMessages.required(label) })
    .trim()
    .min(1, fieldMessages.required(label))
    .superRefine((v, ctx) => {
      if (CATCH_ALL_RE.test(v)) return;
      const r = email.safeParse(v);
      if (!r.success) ctx.addIssue({ code: 'custom', message: r.error.issues[0]!.message });
    });
};

/** Create the domain if it is not a mail domain yet (off: an unknown domain is refused). */
const createDomainFlag = z.boolean({ error: 'createDomain must be true or false' }).optional();

const emailParam = z.object({ email: emailField('Email').transform((v) => v.toLowerCase()) });
const sourceParam = z.object({ source: aliasSourceField('Source Email').transform((v) => v.toLowerCase()) });
const domainParam = z.object({ domain: domainField('Domain').transform((v) => v.toLowerCase()) });

// ---------- mailboxes ----------

export const Mailbox = z.object({
  email: z.string(),
  domain: z.string(),
  /** Bytes; 0 = unlimited. */
  quota: z.number(),
  /** Bytes, as written by Dovecot's quota dictionary. */
  used: z.number(),
  status: z.enum(MAILBOX_STATUSES),
  createdAt: z.string(),
});
export type Mailbox = z.infer<typeof Mailbox>;

export const MAILBOX_SORT_FIELDS = [
  'email',
  'domain',
  'quota',
  'used',
  'usage',
  'status',
  'createdAt',
] as const;
export const MailboxListQuery = ListQuery.extend({
  limit: queryInt(1, MAIL_LIST_MAX_LIMIT, 'limit').optional(),
  sort: z
    .enum([...MAILBOX_SORT_FIELDS, ...MAILBOX_SORT_FIELDS.map((f) => `-${f}` as const)], {
      error: `sort must be one of ${MAILBOX_SORT_FIELDS.join(', ')}, optionally prefixed with -`,
    })
    .optional(),
  status: z.enum(MAILBOX_STATUSES).optional(),
  /** Only this domain's mailboxes. */
  domain: domainField('domain')
    .transform((v) => v.toLowerCase())
    .optional(),
});
export type MailboxListQuery = z.infer<typeof MailboxListQuery>;

export const CreateMailboxRequest = z.object({
  email: emailField('Email').transform((v) => v.toLowerCase()),
  password: passwordField('Password', 8),
  /** Bytes; absent, null or 0 = unlimited (§3: 0 when the form field is empty). Never "" or "0x10". */
  quota: quotaBytes.nullish().transform((v) => v ?? 0),
  createDomain: createDomainFlag,
});
export type CreateMailboxRequest = z.input<typeof CreateMailboxRequest>;

/** The Add/Edit Mailbox form: quota in MB, empty = unlimited. Convert with `mbToBytes`. */
export const MailboxForm = z.object({
  email: emailField('Email'),
  password: passwordField('Password', 8),
  quota: z.union([
    z.literal(''),
    strictNumber(z.number({ error: 'Quota must be a number' }).min(0, 'Quota must be at least 0')),
  ]),
});
export type MailboxForm = z.input<typeof MailboxForm>;

export const ChangePasswordRequest = z.object({ password: passwordField('Password', 8) });
export type ChangePasswordRequest = z.infer<typeof ChangePasswordRequest>;

export const ChangeQuotaRequest = z.object({ quota: quotaBytes });
export type ChangeQuotaRequest = z.input<typeof ChangeQuotaRequest>;

export const RemoveMailboxResponse = z.object({
  success: z.literal(true),
  /** Where the mail folder was moved aside (host path), or null when the mailbox had none yet. */
  movedTo: z.string().nullable(),
});
export type RemoveMailboxResponse = z.infer<typeof RemoveMailboxResponse>;

export const PurgeMailboxResponse = z.object({
  success: z.literal(true),
  /** The moved-aside folders that were deleted. */
  removed: z.array(z.string()),
});
export type PurgeMailboxResponse = z.infer<typeof PurgeMailboxResponse>;

// ---------- aliases ----------

/**
 * Local parts every hosted domain must answer (RFC 2142), and that DMARC reports go to
 * (`rua=mailto:postmaster@<domain>`, see the DNS system records).
 */
export const SYSTEM_ALIAS_LOCAL_PARTS = ['postmaster', 'abuse'] as const;

export const Alias = z.object({
  source: z.string(),
  /** One address or a comma-separated list. */
  destination: z.string(),
  status: z.enum(ALIAS_STATUSES),
  /**
   * A required address Mailroom made (postmaster@, abuse@: RFC 2142; postmaster@ also receives
   * DMARC reports) pointing at the first administrator; saving it makes it the administrator's.
   */
  system: z.boolean(),
});
export type Alias = z.infer<typeof Alias>;

export const ALIAS_SORT_FIELDS = ['source', 'destination', 'status'] as const;
export const AliasListQuery = ListQuery.extend({
  limit: queryInt(1, MAIL_LIST_MAX_LIMIT, 'limit').optional(),
  sort: z
    .enum([...ALIAS_SORT_FIELDS, ...ALIAS_SORT_FIELDS.map((f) => `-${f}` as const)], {
      error: `sort must be one of ${ALIAS_SORT_FIELDS.join(', ')}, optionally prefixed with -`,
    })
    .optional(),
  status: z.enum(ALIAS_STATUSES).optional(),
});
export type AliasListQuery = z.infer<typeof AliasListQuery>;

export const CreateAliasRequest = z.object({
  source: aliasSourceField('Source Email').transform((v) => v.toLowerCase()),
  destination: destinationField('Destination Email'),
  createDomain: createDomainFlag,
});
export type CreateAliasRequest = z.input<typeof CreateAliasRequest>;

export const UpdateAliasRequest = z
  .object({
    destination: destinationField('Destination Email').optional(),
    status: z.enum(ALIAS_STATUSES, { error: 'Status must be active or disabled' }).optional(),
  })
  .refine((v) => v.destination !== undefined || v.status !== undefined, {
    message: 'Give a destination or a status to change',
    path: ['destination'],
  });
export type UpdateAliasRequest = z.input<typeof UpdateAliasRequest>;

const queryFlag = (name: string) =>
  z
    .enum(['1', '0', 'true', 'false'], { error: `${name} must be 1, 0, true or false` })
    .optional()
    .transform((v) => v === '1' || v === 'true');

export const ImportAliasesQuery = z.object({
  dryRun: queryFlag('dryRun'),
  /** Create the domains the file names that are not mail domains yet (off: such rows are refused). */
  createDomains: queryFlag('createDomains'),
});
export const ImportMailboxesQuery = ImportAliasesQuery;

/** Body of the import: the CSV text itself (Content-Type: text/csv), header row source,destination. */
export const ImportAliasesBody = z.string({
  error: 'Send the CSV as the request body (Content-Type: text/csv)',
});

/** Largest alias CSV accepted in one import. */
export const MAX_ALIAS_IMPORT_BYTES = 64 * 1024 * 1024;

export const ImportAliasesResponse = z.object({
  /** Rows written (or that would be written, on a dry run). */
  imported: z.number(),
  /** Rows missing source or destination (§5: skipped, not errors). */
  skipped: z.number(),
  /** Rows refused, with the CSV line number (header = 1) and the reason; nothing else is lost. */
  errors: z.array(z.object({ row: z.number(), message: z.string() })),
  dryRun: z.boolean(),
  /** Domains the import created (or, on a dry run, would create). */
  newDomains: z.array(z.string()).optional(),
});
export type ImportAliasesResponse = z.infer<typeof ImportAliasesResponse>;

/** The mailbox bulk create: CSV header email,password[,quota] (quota in MB; empty = default). */
export const ImportMailboxesResponse = ImportAliasesResponse;
export type ImportMailboxesResponse = ImportAliasesResponse;
export const MAX_MAILBOX_IMPORT_BYTES = 16 * 1024 * 1024;

export const BULK_MAILBOX_ACTIONS = ['suspend', 'resume', 'delete'] as const;
export type BulkMailboxAction = (typeof BULK_MAILBOX_ACTIONS)[number];
/** Largest selection one bulk action takes. */
export const MAX_BULK_MAILBOXES = 1000;
export const BulkMailboxRequest = z.object({
  action: z.enum(BULK_MAILBOX_ACTIONS, { error: 'action must be suspend, resume or delete' }),
  emails: z
    .array(
      emailField('emails').transform((v) => v.toLowerCase()),
      { error: 'emails must be a list' },
    )
    .min(1, 'Select at least one mailbox')
    .max(MAX_BULK_MAILBOXES, `At most ${MAX_BULK_MAILBOXES} mailboxes at once`),
});
export type BulkMailboxRequest = z.input<typeof BulkMailboxRequest>;
export const BulkMailboxResponse = z.object({
  success: z.literal(true),
  /** Mailboxes changed (all of them: one unknown address refuses the whole action). */
  changed: z.number(),
  /** delete: where each mail folder was moved aside. */
  movedTo: z.array(z.string()).optional(),
});
export type BulkMailboxResponse = z.infer<typeof BulkMailboxResponse>;

/** Largest selection one bulk alias delete takes. */
export const MAX_BULK_ALIASES = 1000;
export const BulkRemoveAliasesRequest = z.object({
  sources: z
    .array(
      aliasSourceField('sources').transform((v) => v.toLowerCase()),
      { error: 'sources must be a list' },
    )
    .min(1, 'Select at least one alias')
    .max(MAX_BULK_ALIASES, `At most ${MAX_BULK_ALIASES} aliases at once`),
});
export type BulkRemoveAliasesRequest = z.input<typeof BulkRemoveAliasesRequest>;
export const BulkRemoveAliasesResponse = z.object({
  success: z.literal(true),
  /** Aliases deleted (all of them: one unknown or required alias refuses the whole delete). */
  removed: z.number(),
});
export type BulkRemoveAliasesResponse = z.infer<typeof BulkRemoveAliasesResponse>;

/** Columns of the client-side export (§9). */
export const ALIAS_EXPORT_COLUMNS = ['source', 'destination', 'status'] as const;

// ---------- domains ----------

export const MailDomain = z.object({
  domain: z.string(),
  mailboxes: z.number(),
  aliases: z.number(),
  /** Added explicitly (kept when unused); otherwise it exists while a mailbox or alias uses it. */
  explicit: z.boolean(),
  /** Whether a DKIM key exists for the domain (made in the background after the domain came). */
  dkim: z.boolean(),
  /** The DNS zone hosted here that holds the domain's mail records, or null (published elsewhere). */
  dnsZone: z.string().nullable(),
  /** Has a catch-all alias (`@domain`). */
  catchAll: z.boolean(),
});
export type MailDomain = z.infer<typeof MailDomain>;

export const AddDomainRequest = z.object({ domain: domainField('Domain').transform((v) => v.toLowerCase()) });
export type AddDomainRequest = z.input<typeof AddDomainRequest>;

// ---------- settings ----------

export const mailSettingsLabels = {
  hostname: 'Hostname',
  domain: 'Domain',
  mxRecords: 'MX Records',
  mxPriority: 'Priority',
  mxHost: 'MX Host',
  enableSpamFilter: 'Enable Spam Filter',
  enableVirusScan: 'Enable Virus Scan',
  enableDKIM: 'Enable DKIM',
  enableSPF: 'Enable SPF',
  enableDMARC: 'Enable DMARC',
  requireAuth: 'Require Authentication',
  allowPlainText: 'Allow Plain Text Authentication',
  enableTLS: 'Enable TLS',
  defaultQuota: 'Default Quota',
  maxQuota: 'Max Quota',
  maxMessageSize: 'Max Message Size',
  maxRecipients: 'Max Recipients',
  deliveryTimeout: 'Delivery Timeout',
} as const;

export const MxRecord = z.object({
  priority: requiredInt(mailSettingsLabels.mxPriority, 0, 65535),
  host: domainField(mailSettingsLabels.mxHost).transform((v) => v.toLowerCase()),
});
export type MxRecord = z.infer<typeof MxRecord>;

const L = mailSettingsLabels;
/** The spec's one message for these fields, empty included: '{Label} must be at least 1'. */
const settingsInt = (label: string, min: number, max: number) =>
  requiredInt(label, min, max, fieldMessages.min(label, min));
export const MailSettings = z
  .object({
    hostname: domainField(L.hostname).transform((v) => v.toLowerCase()),
    domain: domainField(L.domain).transform((v) => v.toLowerCase()),
    mxRecords: z.array(MxRecord, { error: mailMessages.mxRequired }).min(1, mailMessages.mxRequired).max(20),
    enableSpamFilter: z.boolean(),
    enableVirusScan: z.boolean(),
    enableDKIM: z.boolean(),
    enableSPF: z.boolean(),
    enableDMARC: z.boolean(),
    requireAuth: z.boolean(),
    allowPlainText: z.boolean(),
    enableTLS: z.boolean(),
    /** MB; the Add Mailbox form starts with it. */
    defaultQuota: settingsInt(L.defaultQuota, 1, 1024 * 1024 * 1024),
    /** MB; no mailbox quota may exceed it (0 = unlimited stays allowed). */
    maxQuota: settingsInt(L.maxQuota, 1, 1024 * 1024 * 1024),
    /** MB → Postfix message_size_limit. */
    maxMessageSize: settingsInt(L.maxMessageSize, 1, 2047),
    /** → Postfix smtpd_recipient_limit. */
    maxRecipients: settingsInt(L.maxRecipients, 1, 1_000_000),
    /** Seconds → Postfix smtp/lmtp delivery timeouts. */
    deliveryTimeout: settingsInt(L.deliveryTimeout, 1, 86_400),
  })
  .refine((s) => s.defaultQuota <= s.maxQuota, {
    message: mailMessages.defaultAboveMax,
    path: ['defaultQuota'],
  });
export type MailSettings = z.output<typeof MailSettings>;
export type MailSettingsInput = z.input<typeof MailSettings>;

/**
 * §9 defaults; hostname and domain come from the machine (placeholders in the spec). Virus scanning
 * stays on only where ClamAV can scan: the server answers its defaults with it off otherwise.
 */
export function defaultMailSettings(hostname: string, domain: string): MailSettings {
  return {
    hostname,
    domain,
    mxRecords: [{ priority: 10, host: hostname }],
    enableSpamFilter: true,
    enableVirusScan: true,
    enableDKIM: true,
    enableSPF: true,
    enableDMARC: false,
    requireAuth: true,
    allowPlainText: false,
    enableTLS: true,
    defaultQuota: 1000,
    maxQuota: 10000,
    maxMessageSize: 25,
    maxRecipients: 100,
    deliveryTimeout: 300,
  };
}

export const ConfigCheck = z.object({ ok: z.boolean(), output: z.string() });
export type ConfigCheck = z.infer<typeof ConfigCheck>;

/**
 * The mail filter (rspamd as Postfix milter: spam filtering, DKIM signing, DMARC checks).
 * off: neither spam filtering nor DKIM is on, so no filter runs; the other states are
 * ServiceControl's (running, stopped, failed, not-installed, unmanaged).
 */
export const MAIL_FILTER_STATES = [
  'running',
  'stopped',
  'failed',
  'not-installed',
  'unmanaged',
  'off',
] as const;
export const MailFilterStatus = z.object({
  state: z.enum(MAIL_FILTER_STATES),
  /** One plain sentence: what is true, and the fix when the filter is not running. */
  detail: z.string(),
  /** Virus scanning is real only when ClamAV and its signatures are installed. */
  virusScan: z.object({
    available: z.boolean(),
    /** True when 'Enable Virus Scan' is on and ClamAV is there, so mail is really scanned. */
    active: z.boolean(),
    detail: z.string(),
  }),
});
export type MailFilterStatus = z.infer<typeof MailFilterStatus>;

/**
 * One step of a mail settings save, in the order it ran: the checks the real tools made, the save,
 * the files put live, each daemon's reload. `not-run`: a later step the save did not reach (a
 * refused check stops it); `skipped`: nothing to do (its files did not change, its tool is missing).
 */
export const SAVE_STEP_STATES = ['passed', 'failed', 'skipped', 'not-run'] as const;
export const SaveStep = z.object({
  name: z.string(),
  state: z.enum(SAVE_STEP_STATES),
  detail: z.string(),
  /** How long it took (null when it did not run). */
  ms: z.number().nullable(),
});
export type SaveStep = z.infer<typeof SaveStep>;

/**
 * A save's step while the save runs (the `mail-save` event): also `pending` (a step the save will
 * come to, not started) and `running` (started, not ended; `ms` null until it ends).
 */
export const LIVE_SAVE_STEP_STATES = ['pending', 'running', ...SAVE_STEP_STATES] as const;
export const LiveSaveStep = SaveStep.extend({ state: z.enum(LIVE_SAVE_STEP_STATES) });
export type LiveSaveStep = z.infer<typeof LiveSaveStep>;

/** The `/api/events` event carrying a mail settings save's steps as they change (issue 22 #17). */
export const MAIL_SAVE_EVENT = 'mail-save';
/** The id a page gives its save (`saveId`), to know its own save's events. */
export const SAVE_ID_RE = /^[A-Za-z0-9-]{8,64}$/;
export const MailSaveProgress = z.object({
  saveId: z.string(),
  /** Counts this save's events from 1: a page keeps the highest it received. */
  seq: z.number().int(),
  /** Every step so far, in the order they started, then the pending ones. */
  steps: z.array(LiveSaveStep),
  /** The save has answered: `steps` are the steps of its answer. */
  done: z.boolean(),
});
export type MailSaveProgress = z.infer<typeof MailSaveProgress>;

export const MailSettingsResponse = z.object({
  settings: MailSettings,
  /** §9 defaults for this machine, for 'Reset to Defaults'. */
  defaults: MailSettings,
  /** Increases on every save; send it back with the next save (stale → 409). */
  version: z.number(),
  /** When the settings were last rendered to the mail server's files (null: never). */
  appliedAt: z.string().nullable(),
  /** Result of the last config check (postconf/doveconf), null when no checker is installed. */
  check: ConfigCheck.nullable(),
  /** Whether the mail filter runs now, and whether virus scanning is really possible. */
  filter: MailFilterStatus,
  /** Host names published as MX or autoconfig targets that are not public FQDNs (warnings). */
  hostWarnings: z.array(z.string()),
  /** The answer of a save: its steps as they ran (absent when the settings are only read). */
  steps: z.array(SaveStep).optional(),
});
export type MailSettingsResponse = z.infer<typeof MailSettingsResponse>;

export const SaveMailSettingsRequest = z.object({
  settings: MailSettings,
  version: z.number({ error: 'version is required' }).int().min(0),
  /** The page's id for this save: its steps are sent on `/api/events` (`mail-save`) as they change. */
  saveId: z
    .string()
    .regex(SAVE_ID_RE, { error: 'saveId must be 8 to 64 letters, digits or dashes' })
    .optional(),
});
export type SaveMailSettingsRequest = z.input<typeof SaveMailSettingsRequest>;

// ---------- dashboard, logs, DKIM ----------

export const MailUsage = z.object({
  email: z.string(),
  quota: z.number(),
  used: z.number(),
  /** used / quota × 100, rounded (§9). */
  percent: z.number(),
});
export type MailUsage = z.infer<typeof MailUsage>;

/** rspamd is listed when the mail filter is wanted (spam filtering or DKIM on). */
export const MailService = z.object({
  name: z.enum(['postfix', 'dovecot', 'rspamd']),
  running: z.boolean(),
});

export const MailDashboard = z.object({
  totalMailboxes: z.number(),
  /** §9: quota above 0. */
  activeMailboxes: z.number(),
  totalAliases: z.number(),
  /** online when every listed service (Postfix, Dovecot, and the filter when wanted) is running. */
  serverStatus: z.enum(['online', 'offline']),
  services: z.array(MailService),
  /** Postfix, Dovecot and the filter (rspamd): each one's real state and why. */
  daemons: z.array(DaemonStatus),
  topUsage: z.array(MailUsage),
});
export type MailDashboard = z.infer<typeof MailDashboard>;

export const MailLogsQuery = z.object({
  lines: strictNumber(
    z
      .number({ error: 'lines must be a whole number' })
      .int('lines must be a whole number')
      .min(1, 'lines must be at least 1')
      .max(5000),
  ).optional(),
});

export const MailLogs = z.object({
  /** Where the lines came from (a file path or `journalctl`), null when nothing was readable. */
  source: z.string().nullable(),
  lines: z.array(z.string()),
  /** Set when no log is readable. */
  message: z.string().nullable(),
});
export type MailLogs = z.infer<typeof MailLogs>;

export const DkimRecord = z.object({
  domain: z.string(),
  selector: z.string(),
  /** Owner name of the TXT record: `${selector}._domainkey.${domain}`. */
  name: z.string(),
  /** TXT value: `v=DKIM1; k=rsa; p=…`. */
  txt: z.string(),
  createdAt: z.string(),
});
export type DkimRecord = z.infer<typeof DkimRecord>;

// ---------- the catalogue ----------

const tags = ['mail'];

export const mailRoutes = {
  listMailboxes: defineRoute({
    method: 'GET',
    path: 'mail/users',
    summary: 'Mailboxes, paged (?q=&limit=&offset=&sort=&status=); total in X-Total-Count',
    tags,
    query: MailboxListQuery,
    response: z.array(Mailbox),
    access: 'domain',
  }),
  createMailbox: defineRoute({
    method: 'POST',
    path: 'mail/users/add',
    summary: 'Create a mailbox (quota in bytes, 0 = unlimited)',
    tags,
    body: CreateMailboxRequest,
    response: OkResponse,
    audit: 'mail.mailbox.create',
    access: 'domain',
    domainFields: ['body.email'],
  }),
  bulkMailboxes: defineRoute({
    method: 'POST',
    path: 'mail/users/bulk',
    summary: 'Suspend, resume or delete several mailboxes in one transaction (all or none)',
    tags,
    body: BulkMailboxRequest,
    response: BulkMailboxResponse,
    audit: 'mail.mailbox.bulk',
    access: 'domain',
    domainFields: ['body.emails[]'],
  }),
  importMailboxes: defineRoute({
    method: 'POST',
    path: 'mail/users/import',
    summary:
      'Create mailboxes from CSV (text/csv; header email,password[,quota MB]); ?dryRun=1 validates only; ?createDomains=1 creates missing domains',
    tags,
    query: ImportMailboxesQuery,
    body: ImportAliasesBody,
    response: ImportMailboxesResponse,
    accepted: JobAccepted,
    audit: 'mail.mailbox.import',
  }),
  removeMailbox: defineRoute({
    method: 'POST',
    path: 'mail/users/remove/:email',
    summary: 'Delete a mailbox; its mail folder is moved aside and the answer says where',
    tags,
    params: emailParam,
    response: RemoveMailboxResponse,
    audit: 'mail.mailbox.remove',
    access: 'domain',
    domainFields: ['params.email'],
  }),
  changePassword: defineRoute({
    method: 'POST',
    path: 'mail/users/password/:email',
    summary: "Set a mailbox's password",
    tags,
    params: emailParam,
    body: ChangePasswordRequest,
    response: OkResponse,
    audit: 'mail.mailbox.password',
    access: 'domain',
    domainFields: ['params.email'],
  }),
  changeQuota: defineRoute({
    method: 'POST',
    path: 'mail/users/quota/:email',
    summary: "Set a mailbox's quota (bytes, 0 = unlimited)",
    tags,
    params: emailParam,
    body: ChangeQuotaRequest,
    response: OkResponse,
    audit: 'mail.mailbox.quota',
    access: 'domain',
    domainFields: ['params.email'],
  }),
  suspendMailbox: defineRoute({
    method: 'POST',
    path: 'mail/users/suspend/:email',
    summary: 'Suspend a mailbox: it cannot sign in and receives nothing; its mail is kept',
    tags,
    params: emailParam,
    response: OkResponse,
    audit: 'mail.mailbox.suspend',
    access: 'domain',
    domainFields: ['params.email'],
  }),
  resumeMailbox: defineRoute({
    method: 'POST',
    path: 'mail/users/resume/:email',
    summary: 'Resume a suspended mailbox',
    tags,
    params: emailParam,
    response: OkResponse,
    audit: 'mail.mailbox.resume',
    access: 'domain',
    domainFields: ['params.email'],
  }),
  purgeMailbox: defineRoute({
    method: 'POST',
    path: 'mail/users/purge/:email',
    summary: 'Delete the moved-aside mail folders of a removed mailbox',
    tags,
    params: emailParam,
    response: PurgeMailboxResponse,
    audit: 'mail.mailbox.purge',
    access: 'domain',
    domainFields: ['params.email'],
  }),
  listAliases: defineRoute({
    method: 'GET',
    path: 'mail/aliases',
    summary: 'Aliases, paged; q searches source or destination; total in X-Total-Count',
    tags,
    query: AliasListQuery,
    response: z.array(Alias),
    access: 'domain',
  }),
  createAlias: defineRoute({
    method: 'POST',
    path: 'mail/aliases/add',
    summary: 'Create an alias (destination: one address or a comma-separated list)',
    tags,
    body: CreateAliasRequest,
    response: OkResponse,
    audit: 'mail.alias.create',
    access: 'domain',
    domainFields: ['body.source'],
  }),
  removeAlias: defineRoute({
    method: 'POST',
    path: 'mail/aliases/remove/:source',
    summary: 'Delete an alias',
    tags,
    params: sourceParam,
    response: OkResponse,
    audit: 'mail.alias.remove',
    access: 'domain',
    domainFields: ['params.source'],
  }),
  removeAliases: defineRoute({
    method: 'POST',
    path: 'mail/aliases/bulk-remove',
    summary: 'Delete several aliases in one transaction (all or none; required system aliases refused)',
    tags,
    body: BulkRemoveAliasesRequest,
    response: BulkRemoveAliasesResponse,
    audit: 'mail.alias.bulk-remove',
  }),
  updateAlias: defineRoute({
    method: 'POST',
    path: 'mail/aliases/update/:source',
    summary: "Change an alias's destination and/or status",
    tags,
    params: sourceParam,
    body: UpdateAliasRequest,
    response: OkResponse,
    audit: 'mail.alias.update',
    access: 'domain',
    domainFields: ['params.source'],
  }),
  importAliases: defineRoute({
    method: 'POST',
    path: 'mail/aliases/import',
    summary: 'Import aliases from CSV (text/csv; header source,destination); ?dryRun=1 validates only',
    tags,
    query: ImportAliasesQuery,
    body: ImportAliasesBody,
    response: ImportAliasesResponse,
    accepted: JobAccepted,
    audit: 'mail.alias.import',
  }),
  listDomains: defineRoute({
    method: 'GET',
    path: 'mail/domains',
    summary: 'Mail domains with their mailbox and alias counts',
    tags,
    response: z.array(MailDomain),
    access: 'domain',
  }),
  addDomain: defineRoute({
    method: 'POST',
    path: 'mail/domains/add',
    summary: 'Add a mail domain explicitly (kept while unused)',
    tags,
    body: AddDomainRequest,
    response: OkResponse,
    audit: 'mail.domain.add',
  }),
  removeDomain: defineRoute({
    method: 'POST',
    path: 'mail/domains/remove/:domain',
    summary: 'Remove an unused mail domain',
    tags,
    params: domainParam,
    response: OkResponse,
    audit: 'mail.domain.remove',
  }),
  getSettings: defineRoute({
    method: 'GET',
    path: 'mail/settings',
    summary: 'Mail settings with their version, last apply time and config check',
    tags,
    response: MailSettingsResponse,
  }),
  saveSettings: defineRoute({
    method: 'POST',
    path: 'mail/settings',
    summary: 'Save and apply the mail settings (409 when version is stale, 422 when the check fails)',
    tags,
    body: SaveMailSettingsRequest,
    response: MailSettingsResponse,
    audit: 'mail.settings.save',
  }),
  dashboard: defineRoute({
    method: 'GET',
    path: 'mail/dashboard',
    summary: 'Counters, mail server status and the top 5 mailboxes by usage',
    tags,
    response: MailDashboard,
  }),
  logs: defineRoute({
    method: 'GET',
    path: 'mail/logs',
    summary: 'Recent Postfix/Dovecot log lines (?lines=200)',
    tags,
    query: MailLogsQuery,
    response: MailLogs,
  }),
  dkim: defineRoute({
    method: 'GET',
    path: 'mail/dkim',
    summary: 'DKIM DNS record text per mail domain',
    tags,
    response: z.array(DkimRecord),
  }),
};
