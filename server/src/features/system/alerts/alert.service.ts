import type { SystemAlert } from '@mailroom/contract/system-alerts';
import type { Kysely } from 'kysely';
import { auditedTransaction } from '../../../apply/audit-scope.ts';
import type { Database } from '../../../db/schema.ts';
import { notFound } from '../../../http/errors.ts';
import {
  alertAcknowledged,
  listAlerts,
  markAcknowledged,
  markAllAcknowledged,
  openCriticalAlerts,
} from './alert.repository.ts';

type Db = Kysely<Database>;

export { listAlerts, openCriticalAlerts };

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
    const acknowledged = await alertAcknowledged(trx, id);
    if (acknowledged === undefined) throw notFound(`Alert ${id} was not found.`);
    if (acknowledged) return 0;
    await markAcknowledged(trx, id, actor, Date.now());
    return 1;
  });
}

export async function acknowledgeAll(db: Db, actor: string): Promise<number> {
  return auditedTransaction(
    db,
    (trx) => markAllAcknowledged(trx, actor, Date.now()),
    (n) => ({ details: { acknowledged: n } }),
  );
}
