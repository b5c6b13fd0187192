import type { SystemAlert } from '@mailroom/contract/system-alerts';
import { type Kysely, type Selectable } from 'kysely';
import type { Database } from '../../../db/schema.ts';
import type { SystemAlertTable } from '../../../db/system.tables.ts';

/** The one owner of `system_alerts`: reads, writes, and its row -> contract mapping. */

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

/** Whether the alert was acknowledged (undefined: no such alert). */
export async function alertAcknowledged(db: Db, id: number): Promise<boolean | undefined> {
  const row = await db
    .selectFrom('system_alerts')
    .select(['id', 'acknowledged_at'])
    .where('id', '=', id)
    .executeTakeFirst();
  return row ? row.acknowledged_at != null : undefined;
}

export async function markAcknowledged(db: Db, id: number, actor: string, at: number): Promise<void> {
  await db
    .updateTable('system_alerts')
    .set({ acknowledged_at: at, acknowledged_by: actor })
    .where('id', '=', id)
    .execute();
}

/** Acknowledges every alert not acknowledged yet; how many. */
export async function markAllAcknowledged(db: Db, actor: string, at: number): Promise<number> {
  const res = await db
    .updateTable('system_alerts')
    .set({ acknowledged_at: at, acknowledged_by: actor })
    .where('acknowledged_at', 'is', null)
    .executeTakeFirst();
  return Number(res.numUpdatedRows);
}

/** The alerts not resolved yet (the engine's memory of what is raised). */
export async function unresolvedAlerts(db: Db) {
  const rows = await db
    .selectFrom('system_alerts')
    .select(['id', 'condition_key', 'type', 'severity'])
    .where('resolved_at', 'is', null)
    .execute();
  return rows.map((a) => ({
    id: Number(a.id),
    key: a.condition_key,
    type: a.type,
    severity: a.severity as SystemAlert['severity'],
  }));
}

/** Whether an alert of this condition is raised and not resolved. */
export async function conditionRaised(db: Db, key: string): Promise<boolean> {
  const row = await db
    .selectFrom('system_alerts')
    .select('id')
    .where('condition_key', '=', key)
    .where('resolved_at', 'is', null)
    .executeTakeFirst();
  return !!row;
}

export async function insertAlert(
  db: Db,
  a: { type: string; key: string; severity: string; title: string; message: string; at: number },
): Promise<SystemAlert> {
  const row = await db
    .insertInto('system_alerts')
    .values({
      type: a.type,
      condition_key: a.key,
      severity: a.severity,
      title: a.title,
      message: a.message,
      raised_at: a.at,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  return toAlert(row);
}

/** Raises an open alert's severity (undefined: resolved meanwhile). */
export async function escalateAlert(
  db: Db,
  id: number,
  set: { severity: string; title: string; message: string },
): Promise<SystemAlert | undefined> {
  const row = await db
    .updateTable('system_alerts')
    .set(set)
    .where('id', '=', id)
    .where('resolved_at', 'is', null)
    .returningAll()
    .executeTakeFirst();
  return row ? toAlert(row) : undefined;
}

/** Resolves an open alert (undefined: resolved meanwhile). */
export async function resolveAlert(db: Db, id: number, at: number): Promise<SystemAlert | undefined> {
  const row = await db
    .updateTable('system_alerts')
    .set({ resolved_at: at })
    .where('id', '=', id)
    .where('resolved_at', 'is', null)
    .returningAll()
    .executeTakeFirst();
  return row ? toAlert(row) : undefined;
}
