import { fieldMessages } from '../messages.ts';
import { domainField, requiredInt } from '../validators.ts';
import { mailMessages } from './constants.ts';
import { z } from 'zod';

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
