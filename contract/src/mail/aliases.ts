import { ListQuery } from '../common.ts';
import { emailField, queryInt } from '../validators.ts';
import { ALIAS_STATUSES, MAIL_LIST_MAX_LIMIT } from './constants.ts';
import { destinationField, aliasSourceField } from './fields.ts';
import { createDomainFlag } from './request-fields.ts';
import { z } from 'zod';

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
