import { z } from 'zod';
import { defineRoute } from './route.ts';
import { queryInt } from './validators.ts';

export const AuditEntry = z.object({
  id: z.number(),
  at: z.string(),
  actor: z.string().nullable(),
  action: z.string(),
  target: z.string().nullable(),
  ip: z.string().nullable(),
  outcome: z.enum(['success', 'failure']),
  details: z.string().nullable(),
});
export type AuditEntry = z.infer<typeof AuditEntry>;

const DATE_RE = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2}))?$/;

/** A date (`2026-01-31`) or a date-time with its offset (`2026-01-31T10:00:00Z`). */
const dateParam = (label: string) =>
  z
    .string()
    .trim()
    .refine((v) => DATE_RE.test(v) && !Number.isNaN(Date.parse(v)), `${label} must be a date`);

export const AuditQuery = z.object({
  limit: queryInt(1, 500, 'limit').optional(),
  offset: queryInt(0, undefined, 'offset').optional(),
  /** Prefix of the action, e.g. `mail.` or `dns.` for an area's recent activity. */
  action: z.string().max(100).optional(),
  /** Who: the administrator's email (exact). */
  actor: z.string().trim().max(254).optional(),
  /** What it acted on: a prefix of the target (`mail.example.com`, `user@`). */
  target: z.string().trim().max(255).optional(),
  /** From this moment (ISO date or date-time, inclusive). */
  from: dateParam('From').optional(),
  /** Up to this moment (ISO date: the whole day; date-time: exclusive). */
  to: dateParam('To').optional(),
  /** Keyset paging: entries older than this id (the `nextCursor` of the previous page). */
  cursor: queryInt(1, undefined, 'cursor').optional(),
});

export const AuditList = z.object({
  entries: z.array(AuditEntry),
  total: z.number(),
  /** The count stopped at TOTAL_CAP: there are more entries than `total`. */
  totalCapped: z.boolean().optional(),
  /** The id to pass as `cursor` for the next (older) page; null on the last page. */
  nextCursor: z.number().nullable().optional(),
});
export type AuditList = z.infer<typeof AuditList>;

export const auditRoutes = {
  list: defineRoute({
    method: 'GET',
    path: 'audit',
    summary: 'The audit log, newest first',
    tags: ['audit'],
    query: AuditQuery,
    response: AuditList,
  }),
  actors: defineRoute({
    method: 'GET',
    path: 'audit/actors',
    summary: "The administrators, for the audit screen's filter",
    tags: ['audit'],
    response: z.object({ actors: z.array(z.string()) }),
  }),
};
