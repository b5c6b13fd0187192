import { createHmac } from 'node:crypto';
import type { Kysely, Selectable } from 'kysely';
import { auditedTransaction } from '../../apply/audit-scope.ts';
import type { Database } from '../../db/schema.ts';
import type { SystemWebhookTable, WebhookDeliveryTable } from '../../db/system-admin.tables.ts';
import { notFound } from '../../http/errors.ts';
import type { JobContext, JobOutcome, Jobs as JobRunner } from './job-types.ts';

type Db = Kysely<Database>;
export const WEBHOOK_JOB = 'system.webhook.deliver';
const iso = (ms: number | null) => (ms == null ? null : new Date(Number(ms)).toISOString());

export interface WebhookTuning {
  /** Attempts per delivery (default 5). */
  attempts: number;
  /** Wait before the 2nd attempt; doubled each time (default 5 s: 5, 10, 20, 40 s). */
  backoffMs: number;
  /** One attempt's time limit (default 10 s). */
  timeoutMs: number;
}

export function webhookTuning(env: NodeJS.ProcessEnv = process.env): WebhookTuning {
  const n = (v: string | undefined, d: number) => (v && /^\d+$/.test(v) ? Number(v) : d);
  return {
    attempts: Math.max(1, n(env.MAILROOM_WEBHOOK_ATTEMPTS, 5)),
    backoffMs: n(env.MAILROOM_WEBHOOK_BACKOFF_MS, 5000),
    timeoutMs: n(env.MAILROOM_WEBHOOK_TIMEOUT_MS, 10_000),
  };
}

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

/** The signature header's value: `sha256=` and the hex HMAC-SHA256 of the exact body. */
export function signBody(secret: string, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
}

export async function listWebhooks(db: Db) {
  return (await db.selectFrom('system_webhooks').selectAll().orderBy('id').execute()).map(toWebhook);
}

export async function addWebhook(db: Db, url: string, secret: string) {
  const row = await auditedTransaction(
    db,
    (trx) =>
      trx
        .insertInto('system_webhooks')
        .values({ url, secret, enabled: 1, created_at: Date.now() })
        .returningAll()
        .executeTakeFirstOrThrow(),
    (r) => ({ target: String(r.id), details: { url } }),
  );
  return toWebhook(row);
}

export async function deleteWebhook(db: Db, id: number): Promise<number> {
  return auditedTransaction(db, async (trx) => {
    const res = await trx.deleteFrom('system_webhooks').where('id', '=', id).executeTakeFirst();
    if (Number(res.numDeletedRows) === 0) throw notFound(`Webhook ${id} was not found.`);
    return 1;
  });
}

export async function listDeliveries(db: Db, webhookId: number) {
  const hook = await db
    .selectFrom('system_webhooks')
    .select('id')
    .where('id', '=', webhookId)
    .executeTakeFirst();
  if (!hook) throw notFound(`Webhook ${webhookId} was not found.`);
  const rows = await db
    .selectFrom('webhook_deliveries')
    .selectAll()
    .where('webhook_id', '=', webhookId)
    .orderBy('id', 'desc')
    .limit(100)
    .execute();
  return rows.map(toDelivery);
}

/** Records one delivery per enabled webhook (or only `onlyHook`) and queues a job to send each. */
export async function queueEvent(
  db: Db,
  jobs: JobRunner,
  event: string,
  data: unknown,
  onlyHook?: number,
): Promise<number[]> {
  let q = db.selectFrom('system_webhooks').select('id').where('enabled', '=', 1);
  if (onlyHook !== undefined) q = q.where('id', '=', onlyHook);
  const hooks = await q.execute();
  const ids: number[] = [];
  for (const h of hooks) {
    const now = Date.now();
    const row = await db
      .insertInto('webhook_deliveries')
      .values({ webhook_id: h.id, event, body: '', state: 'pending', attempts: 0, created_at: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    const body = JSON.stringify({ id: Number(row.id), event, sentAt: new Date(now).toISOString(), data });
    await db.updateTable('webhook_deliveries').set({ body }).where('id', '=', row.id).execute();
    await jobs.enqueue(WEBHOOK_JOB, `Webhook delivery ${row.id} (${event})`, null, {
      deliveryId: Number(row.id),
    });
    ids.push(Number(row.id));
  }
  return ids;
}

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const t = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => {
      clearTimeout(t);
      reject(signal.reason as Error);
    });
  });

/** The job: POSTs the signed body, retrying with doubling waits; every attempt is recorded. */
export function deliveryJob(db: Db, tuning: WebhookTuning) {
  return async (input: unknown, ctx: JobContext): Promise<JobOutcome> => {
    const { deliveryId } = input as { deliveryId: number };
    const d = await db
      .selectFrom('webhook_deliveries')
      .selectAll()
      .where('id', '=', deliveryId)
      .executeTakeFirst();
    if (!d) return { result: { skipped: 'delivery no longer exists' } };
    const hook = await db
      .selectFrom('system_webhooks')
      .selectAll()
      .where('id', '=', d.webhook_id)
      .executeTakeFirst();
    if (!hook) return { result: { skipped: 'webhook deleted' } };
    let attempts = d.attempts;
    for (;;) {
      attempts += 1;
      ctx.progress({
        phase: `Attempt ${attempts} of ${tuning.attempts}`,
        processed: attempts,
        total: tuning.attempts,
      });
      let status: number | null = null;
      let error: string | null = null;
      try {
        const res = await fetch(hook.url, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            'user-agent': 'Mailroom-Webhook/1',
            'x-mailroom-event': d.event,
            'x-mailroom-delivery': String(d.id),
            'x-mailroom-signature': signBody(hook.secret, d.body),
          },
          body: d.body,
          signal: AbortSignal.any([ctx.signal, AbortSignal.timeout(tuning.timeoutMs)]),
          redirect: 'manual',
        });
        status = res.status;
        await res.body?.cancel();
        if (res.status < 200 || res.status >= 300) error = `The receiver answered HTTP ${res.status}`;
      } catch (err) {
        if (ctx.signal.aborted) throw err;
        error =
          err instanceof Error ? (err.cause instanceof Error ? err.cause.message : err.message) : String(err);
      }
      const done = error === null;
      const last = done || attempts >= tuning.attempts;
      await db
        .updateTable('webhook_deliveries')
        .set({
          attempts,
          last_status: status,
          last_error: error,
          state: done ? 'delivered' : last ? 'failed' : 'pending',
          delivered_at: done ? Date.now() : null,
        })
        .where('id', '=', d.id)
        .execute();
      if (done) return { result: { delivered: true, attempts }, summary: `Delivered to ${hook.url}` };
      if (last)
        throw new Error(`Webhook delivery to ${hook.url} failed after ${attempts} attempts: ${error}`);
      await sleep(tuning.backoffMs * 2 ** (attempts - 1), ctx.signal);
    }
  };
}
