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
export async function recordAudit(db: Kysely<Database>, e: AuditInput): Promise<void> {
  const details =
    e.details == null ? null : typeof e.details === 'string' ? e.details : JSON.stringify(e.details);
  await db
    .insertInto('audit_log')
    .values({
      at: new Date().toISOString(),
      actor: e.actor,
      action: e.action,
      target: e.target ?? null,
      ip: e.ip ?? null,
      outcome: e.outcome,
      details: details?.slice(0, 4000) ?? null,
    })
    .execute();
}
