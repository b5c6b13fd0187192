import { ListQuery } from '../common.ts';
import { domainField, emailField, passwordField, queryInt, strictNumber } from '../validators.ts';
import { MAILBOX_STATUSES, MAIL_LIST_MAX_LIMIT } from './constants.ts';
import { quotaBytes, createDomainFlag } from './request-fields.ts';
import { z } from 'zod';

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
