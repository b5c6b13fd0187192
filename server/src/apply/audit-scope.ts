import { AsyncLocalStorage } from 'node:async_hooks';
import type { FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { recordAudit } from '../http/audit-log.repository.ts';

/**
 * The request a route handler is serving, so a service deep below can write the audit line in its
 * own transaction (it commits or rolls back with the change). The generic onSend hook in
 * http/auth-guard.ts remains the fallback for routes that write none.
 */
const scope = new AsyncLocalStorage<FastifyRequest>();

export function runInAuditScope<T>(request: FastifyRequest, fn: () => T): T {
  return scope.run(request, fn);
}

export function currentRequest(): FastifyRequest | undefined {
  return scope.getStore();
}

export interface ChangeAudit {
  /** What was acted on; defaults to the request's `auditTarget` or path parameters. */
  target?: string | null;
  /** Settings: the values before and after the change (never secrets). */
  before?: unknown;
  after?: unknown;
  details?: Record<string, unknown> | null;
}

/** Who is acting, for the apply outcome: the signed-in administrator, or null for the server. */
export function currentActor(): string | null {
  return currentRequest()?.admin?.email ?? null;
}

/**
 * Writes the current request's audit line through `trx`. Answers a function to call once the
 * transaction committed (it marks the request's line written, so the fallback hook adds none);
 * null outside a signed-in request (startup, background work).
 */
export async function writeChangeAudit(
  trx: Kysely<Database>,
  change: ChangeAudit = {},
): Promise<(() => void) | null> {
  const request = currentRequest();
  const action = request?.routeOptions.config?.audit;
  if (!request?.admin || !action || request.auditDone) return null;
  const params = request.params as Record<string, string> | undefined;
  const target =
    change.target ??
    request.auditTarget ??
    (params && Object.keys(params).length ? Object.values(params).join('/') : null);
  const details: Record<string, unknown> = { ...(request.auditDetails ?? {}), ...(change.details ?? {}) };
  if (change.before !== undefined) details.before = change.before;
  if (change.after !== undefined) details.after = change.after;
  await recordAudit(trx, {
    actor: request.admin.email,
    action,
    target,
    ip: request.ip,
    outcome: 'success',
    details: Object.keys(details).length ? details : null,
  });
  return () => {
    request.auditDone = true;
  };
}

/**
 * `db.transaction().execute(fn)` with the current request's audit line written in it, last: the
 * line commits or rolls back with the change, and a failed audit write fails the change.
 */
export async function auditedTransaction<T>(
  db: Kysely<Database>,
  fn: (trx: Kysely<Database>) => Promise<T>,
  audit?: (value: T) => ChangeAudit,
): Promise<T> {
  let markDone: (() => void) | null = null;
  const value = await db.transaction().execute(async (trx) => {
    const v = await fn(trx);
    markDone = await writeChangeAudit(trx, audit?.(v));
    return v;
  });
  (markDone as (() => void) | null)?.();
  return value;
}
