import type { Kysely, Selectable } from 'kysely';
import type { Database } from '../../../db/schema.ts';
import type { SystemWebhookTable, WebhookDeliveryTable } from '../../../db/system.tables.ts';

/** The one owner of `system_webhooks` and `webhook_deliveries`: reads, writes, row -> contract. */

type Db = Kysely<Database>;
const iso = (ms: number | null) => (ms == null ? null : new Date(Number(ms)).toISOString());

export const toWebhook = (r: Selectable<SystemWebhookTable>) => ({
  id: Number(r.id),
  url: r.url,
  enabled: r.enabled === 1,
  createdAt: iso(r.created_at)!,
});

export const toDelivery = (r: Selectable<WebhookDeliveryTable>) => ({
  id: Number(r.id),
  event: r.event,
  state: r.state as 'pending' | 'delivered' | 'failed',
  attempts: r.attempts,
  lastStatus: r.last_status,
  lastError: r.last_error,
  createdAt: iso(r.created_at)!,
  deliveredAt: iso(r.delivered_at),
});

export async function listWebhooks(db: Db) {
  return (await db.selectFrom('system_webhooks').selectAll().orderBy('id').execute()).map(toWebhook);
}

export async function insertWebhook(db: Db, url: string, secret: string) {
  const row = await db
    .insertInto('system_webhooks')
    .values({ url, secret, enabled: 1, created_at: Date.now() })
    .returningAll()
    .executeTakeFirstOrThrow();
  return toWebhook(row);
}

/** Deletes the webhook; false when there was none. */
export async function deleteWebhookRow(db: Db, id: number): Promise<boolean> {
  const res = await db.deleteFrom('system_webhooks').where('id', '=', id).executeTakeFirst();
  return Number(res.numDeletedRows) > 0;
}

export async function readWebhook(db: Db, id: number) {
  return db.selectFrom('system_webhooks').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The ids of the enabled webhooks (only `onlyHook`'s when given). */
export async function enabledWebhookIds(db: Db, onlyHook?: number): Promise<number[]> {
  let q = db.selectFrom('system_webhooks').select('id').where('enabled', '=', 1);
  if (onlyHook !== undefined) q = q.where('id', '=', onlyHook);
  return (await q.execute()).map((h) => Number(h.id));
}

/** The webhook's latest deliveries, newest first. */
export async function latestDeliveries(db: Db, webhookId: number, limit: number) {
  const rows = await db
    .selectFrom('webhook_deliveries')
    .selectAll()
    .where('webhook_id', '=', webhookId)
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
  return rows.map(toDelivery);
}

/** Records a pending delivery (its body set next, once its id is known); answers its id. */
export async function insertDelivery(db: Db, webhookId: number, event: string, at: number): Promise<number> {
  const row = await db
    .insertInto('webhook_deliveries')
    .values({ webhook_id: webhookId, event, body: '', state: 'pending', attempts: 0, created_at: at })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(row.id);
}

export async function setDeliveryBody(db: Db, id: number, body: string): Promise<void> {
  await db.updateTable('webhook_deliveries').set({ body }).where('id', '=', id).execute();
}

export async function readDelivery(db: Db, id: number) {
  return db.selectFrom('webhook_deliveries').selectAll().where('id', '=', id).executeTakeFirst();
}

/** One attempt's outcome (delivered_at set when delivered). */
export async function recordAttempt(
  db: Db,
  id: number,
  a: {
    attempts: number;
    status: number | null;
    error: string | null;
    state: 'delivered' | 'failed' | 'pending';
  },
): Promise<void> {
  await db
    .updateTable('webhook_deliveries')
    .set({
      attempts: a.attempts,
      last_status: a.status,
      last_error: a.error,
      state: a.state,
      delivered_at: a.state === 'delivered' ? Date.now() : null,
    })
    .where('id', '=', id)
    .execute();
}
