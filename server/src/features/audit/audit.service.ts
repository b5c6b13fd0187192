import type { AuditEntry, AuditList } from '@mailroom/contract/audit';
import { type Kysely, sql } from 'kysely';
import type { Database } from '../../db/schema.ts';

export async function listAudit(
  db: Kysely<Database>,
  q: { limit?: number | undefined; offset?: number | undefined; action?: string | undefined },
): Promise<AuditList> {
  let base = db.selectFrom('audit_log');
  // A plain prefix compare: LIKE would treat `_` and `%` as wildcards and differs in case rules
  // between SQLite and PostgreSQL.
  if (q.action) base = base.where(sql<boolean>`substr(action, 1, ${q.action.length}) = ${q.action}`);
  const [rows, count] = await Promise.all([
    base
      .selectAll()
      .orderBy('id', 'desc')
      .limit(q.limit ?? 50)
      .offset(q.offset ?? 0)
      .execute(),
    base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return {
    entries: rows.map((r): AuditEntry => ({
      id: r.id,
      at: r.at,
      actor: r.actor,
      action: r.action,
      target: r.target,
      ip: r.ip,
      outcome: r.outcome === 'success' ? 'success' : 'failure',
      details: r.details,
    })),
    total: Number(count.n),
  };
}
