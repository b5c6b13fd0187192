import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';

export interface AuditInput {
  actor: string | null;
  action: string;
  target?: string | null;
  ip?: string | null;
  outcome: 'success' | 'failure';
  details?: string | Record<string, unknown> | null;
}

/** Appends one line to the audit log. Actions are `area.verb`, e.g. `mail.mailbox.create`. */
function auditRow(e: AuditInput, at: string) {
  const details =
    e.details == null ? null : typeof e.details === 'string' ? e.details : JSON.stringify(e.details);
  return {
    at,
    actor: e.actor,
    action: e.action,
    target: e.target ?? null,
    ip: e.ip ?? null,
    outcome: e.outcome,
    details: details?.slice(0, 4000) ?? null,
  };
}

export async function recordAudit(db: Kysely<Database>, e: AuditInput): Promise<void> {
  await db.insertInto('audit_log').values(auditRow(e, new Date().toISOString())).execute();
}

/** Several lines in one statement (a bulk batch's per-item lines), in order. */
export async function recordAudits(db: Kysely<Database>, list: AuditInput[]): Promise<void> {
  const at = new Date().toISOString();
  for (let i = 0; i < list.length; i += 200)
    await db
      .insertInto('audit_log')
      .values(list.slice(i, i + 200).map((e) => auditRow(e, at)))
      .execute();
}
