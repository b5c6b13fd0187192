import { ListQuery } from '../common.ts';
import { fieldMessages } from '../messages.ts';
import { queryInt, requiredInt, requiredString } from '../validators.ts';
import { DNS_RECORD_TYPES, TTL_MAX, recordLabels, RECORD_API_DEFAULT_TTL, dnsMessages } from './constants.ts';
import { type RecordFieldsInput, recordFieldProblems } from './value-checks.ts';
import { z } from 'zod';

// ---------------------------------------------------------------------------------------------
// Record requests

const optionalU16 = (label: string) => requiredInt(label, 0, 65535).nullish();

const recordCore = {
  qname: z
    .string({ error: fieldMessages.required(recordLabels.qname) })
    .trim()
    .max(253, dnsMessages.name),
  rtype: z.enum(DNS_RECORD_TYPES, {
    error: `${recordLabels.rtype} must be one of ${DNS_RECORD_TYPES.join(', ')}`,
  }),
  value: requiredString(recordLabels.value).max(65535 * 2, dnsMessages.txtTooLong),
  priority: optionalU16(recordLabels.priority),
  weight: optionalU16(recordLabels.weight),
  port: optionalU16(recordLabels.port),
};

type RecordShape = RecordFieldsInput;
function perType<T extends z.ZodType<RecordShape>>(schema: T) {
  return schema.superRefine((r, ctx) => {
    for (const [field, message] of recordFieldProblems(r))
      ctx.addIssue({ code: 'custom', path: [field], message });
  });
}

/** `POST dns/records/add` — the spec's form body. */
export const RecordAddRequest = perType(
  z.object({
    zone: requiredString(recordLabels.zone).max(253),
    ...recordCore,
    ttl: requiredInt(recordLabels.ttl, 1, TTL_MAX),
  }),
);
export type RecordAddRequest = z.input<typeof RecordAddRequest>;

/** `POST dns/zones/:zone/records` (ttl defaults to 300) and `PUT …/:qname/:rtype`. */
export const RecordInput = perType(
  z.object({
    ...recordCore,
    ttl: requiredInt(recordLabels.ttl, 1, TTL_MAX).default(RECORD_API_DEFAULT_TTL),
  }),
);
export type RecordInput = z.input<typeof RecordInput>;

export const RecordRemoveRequest = z.object({
  qname: z.string().trim().max(253),
  rtype: z.enum(DNS_RECORD_TYPES),
  zone: z.string().max(253).optional(),
  value: z.string().optional(),
});
export type RecordRemoveRequest = z.input<typeof RecordRemoveRequest>;

export const RecordPathParams = z.object({
  zone: z.string().min(1).max(253),
  /** '@' for the apex. */
  qname: z.string().min(1).max(253),
  rtype: z.enum(DNS_RECORD_TYPES),
});
/** Picks one of several records with the same name and type. */
export const RecordPickQuery = z.object({
  value: z.string().optional(),
  id: queryInt(1, undefined, 'id').optional(),
});

export const RecordListQuery = ListQuery.extend({
  zone: z.string().max(253).optional(),
  type: z.enum(DNS_RECORD_TYPES).optional(),
});
export type RecordListQuery = z.input<typeof RecordListQuery>;

/** Largest selection one bulk record delete takes. */
export const MAX_BULK_RECORDS = 1000;
export const BulkRemoveRecordsRequest = z.object({
  ids: z
    .array(
      z
        .number({ error: 'ids must be record ids' })
        .int('ids must be record ids')
        .positive('ids must be record ids'),
      {
        error: 'ids must be a list',
      },
    )
    .min(1, 'Select at least one record')
    .max(MAX_BULK_RECORDS, `At most ${MAX_BULK_RECORDS} records at once`),
});
export type BulkRemoveRecordsRequest = z.input<typeof BulkRemoveRecordsRequest>;
export const BulkRemoveRecordsResponse = z.object({
  success: z.literal(true),
  /** Records deleted (all of them: one unknown id refuses the whole delete). */
  removed: z.number().int(),
});

export const RecordImportQuery = z.object({ dryRun: z.enum(['0', '1', 'true', 'false']).optional() });
export const RecordImportResult = z.object({
  imported: z.number().int(),
  skipped: z.number().int(),
  /** Row numbers count the file's lines from 1 (the header is line 1). */
  errors: z.array(z.object({ row: z.number().int(), message: z.string() })),
  dryRun: z.boolean(),
});
export type RecordImportResult = z.infer<typeof RecordImportResult>;

/** Column order of the spec's export file (`dns-records-{date}.csv`). */
export const RECORD_EXPORT_COLUMNS = ['zone', 'qname', 'rtype', 'value', 'ttl', 'priority'] as const;
/** Column order the import reads (a header line is skipped). */
export const RECORD_IMPORT_COLUMNS = ['zone', 'name', 'type', 'value', 'ttl', 'priority'] as const;
