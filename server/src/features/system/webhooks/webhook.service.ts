import { createHmac } from 'node:crypto';
import type { Kysely } from 'kysely';
import { auditedTransaction } from '../../../apply/audit-scope.ts';
import type { Database } from '../../../db/schema.ts';
import { notFound } from '../../../http/errors.ts';
import type { JobContext, JobOutcome, Jobs as JobRunner } from '../system-job.types.ts';
import {
  deleteWebhookRow,
  enabledWebhookIds,
  insertDelivery,
  insertWebhook,
  latestDeliveries,
  listWebhooks,
  readDelivery,
  readWebhook,
  recordAttempt,
  setDeliveryBody,
} from './webhook.repository.ts';

type Db = Kysely<Database>;
export const WEBHOOK_JOB = 'system.webhook.deliver';

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

/** The signature header's value: `sha256=` and the hex HMAC-SHA256 of the exact body. */
export function signBody(secret: string, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
}

export { listWebhooks };

export async function addWebhook(db: Db, url: string, secret: string) {
  return auditedTransaction(
    db,
    (trx) => insertWebhook(trx, url, secret),
    (w) => ({ target: String(w.id), details: { url } }),
  );
}

export async function deleteWebhook(db: Db, id: number): Promise<number> {
  return auditedTransaction(db, async (trx) => {
    if (!(await deleteWebhookRow(trx, id))) throw notFound(`Webhook ${id} was not found.`);
    return 1;
  });
}

export async function listDeliveries(db: Db, webhookId: number) {
  if (!(await readWebhook(db, webhookId))) throw notFound(`Webhook ${webhookId} was not found.`);
  return latestDeliveries(db, webhookId, 100);
}

/** Records one delivery per enabled webhook (or only `onlyHook`) and queues a job to send each. */
export async function queueEvent(
  db: Db,
  jobs: JobRunner,
  event: string,
  data: unknown,
  onlyHook?: number,
): Promise<number[]> {
  const ids: number[] = [];
  for (const hookId of await enabledWebhookIds(db, onlyHook)) {
    const now = Date.now();
    const id = await insertDelivery(db, hookId, event, now);
    const body = JSON.stringify({ id, event, sentAt: new Date(now).toISOString(), data });
    await setDeliveryBody(db, id, body);
    await jobs.enqueue(WEBHOOK_JOB, `Webhook delivery ${id} (${event})`, null, {
      deliveryId: id,
    });
    ids.push(id);
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
    const d = await readDelivery(db, deliveryId);
    if (!d) return { result: { skipped: 'delivery no longer exists' } };
    const hook = await readWebhook(db, Number(d.webhook_id));
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
      await recordAttempt(db, Number(d.id), {
        attempts,
        status,
        error,
        state: done ? 'delivered' : last ? 'failed' : 'pending',
      });
      if (done) return { result: { delivered: true, attempts }, summary: `Delivered to ${hook.url}` };
      if (last)
        throw new Error(`Webhook delivery to ${hook.url} failed after ${attempts} attempts: ${error}`);
      await sleep(tuning.backoffMs * 2 ** (attempts - 1), ctx.signal);
    }
  };
}
