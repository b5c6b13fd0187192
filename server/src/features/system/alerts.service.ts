import type { SystemAlert } from '@mailroom/contract/system-alerts';
import type { Kysely, Selectable } from 'kysely';
import { auditedTransaction } from '../../apply/audit-scope.ts';
import type { Database } from '../../db/schema.ts';
import type { SystemAlertTable } from '../../db/system-admin.tables.ts';
import { notFound } from '../../http/errors.ts';

type Db = Kysely<Database>;
const iso = (ms: number | null) => (ms == null ? null : new Date(Number(ms)).toISOString());

export function toAlert(r: Selectable<SystemAlertTable>): SystemAlert {
  return {
    id: Number(r.id),
    type: r.type,
    severity: r.severity as SystemAlert['severity'],
    title: r.title,
    message: r.message,
    timestamp: iso(r.raised_at)!,
    resolvedAt: iso(r.resolved_at),
    acknowledged: r.acknowledged_at != null,
    acknowledgedBy: r.acknowledged_by,
    acknowledgedAt: iso(r.acknowledged_at),
  };
}

/**
 * `active`: every alert not yet acknowledged (open or resolved); `open`: not resolved and not
 * acknowledged (what is wrong now); `all`: the latest 500.
 */
export async function listAlerts(
  db: Db,
  state: 'active' | 'open' | 'all' = 'active',
): Promise<SystemAlert[]> {
  let q = db.selectFrom('system_alerts').selectAll().orderBy('raised_at', 'desc').orderBy('id', 'desc');
  if (state === 'all') q = q.limit(500);
  else q = q.where('acknowledged_at', 'is', null);
  if (state === 'open') q = q.where('resolved_at', 'is', null);
  return (await q.execute()).map(toAlert);
}

/** Open critical alerts (the dashboard's status). */
export async function openCriticalAlerts(db: Db): Promise<SystemAlert[]> {
  const rows = await db
    .selectFrom('system_alerts')
    .selectAll()
    .where('resolved_at', 'is', null)
    .where('severity', '=', 'critical')
    .orderBy('id', 'desc')
    .limit(20)
    .execute();
  return rows.map(toAlert);
}

/**
 * A warning or critical alert reaches the notifications bell when raised (or escalated), and its
 * resolution is announced too; the bell shows an alert's notifications only while it is open.
 */
export interface AlertNotice {
  level: 'success' | 'warning' | 'error';
  title: string;
  message: string;
  alertId: number;
}

export async function notifyAlert(
  notify: (n: AlertNotice) => Promise<void>,
  change: { event: 'alert.raised' | 'alert.resolved'; alert: SystemAlert; escalated?: boolean },
): Promise<void> {
  const a = change.alert;
  if (a.severity !== 'warning' && a.severity !== 'critical') return;
  if (change.event === 'alert.raised')
    await notify({
      level: a.severity === 'critical' ? 'error' : 'warning',
      title: a.title,
      message: a.message,
      alertId: a.id,
    });
  else
    await notify({
      level: 'success',
      title: `Resolved: ${a.title}`,
      message: 'The condition is over.',
      alertId: a.id,
    });
}

export async function acknowledgeAlert(db: Db, id: number, actor: string): Promise<number> {
  return auditedTransaction(db, async (trx) => {
    const row = await trx
      .selectFrom('system_alerts')
      .select(['id', 'acknowledged_at'])
      .where('id', '=', id)
      .executeTakeFirst();
    if (!row) throw notFound(`Alert ${id} was not found.`);
    if (row.acknowledged_at != null) return 0;
    await trx
      .updateTable('system_alerts')
      .set({ acknowledged_at: Date.now(), acknowledged_by: actor })
      .where('id', '=', id)
      .execute();
    return 1;
  });
}

export async function acknowledgeAll(db: Db, actor: string): Promise<number> {
  return auditedTransaction(
    db,
    async (trx) => {
      const res = await trx
        .updateTable('system_alerts')
        .set({ acknowledged_at: Date.now(), acknowledged_by: actor })
        .where('acknowledged_at', 'is', null)
        .executeTakeFirst();
      return Number(res.numUpdatedRows);
    },
    (n) => ({ details: { acknowledged: n } }),
  );
}
