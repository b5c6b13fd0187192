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

export const AuditQuery = z.object({
  limit: queryInt(1, 500, 'limit').optional(),
  offset: queryInt(0, undefined, 'offset').optional(),
  /** Prefix of the action, e.g. `mail.` or `dns.` for an area's recent activity. */
  action: z.string().max(100).optional(),
});

export const AuditList = z.object({ entries: z.array(AuditEntry), total: z.number() });
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
};
