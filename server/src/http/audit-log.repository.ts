import type { AuditEntry, AuditList } from '@mailroom/contract/audit';
import { TOTAL_CAP } from '@mailroom/contract/common';
import { type Kysely, sql } from 'kysely';
import type { Database } from '../db/schema.ts';

/** The SQL of `audit_log`: every change's line (written by the audit hook and the areas), and the log's screen. */

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

/** How many lines of this action with this outcome were written since `since` (an ISO time). */
export async function countAuditSince(
  db: Kysely<Database>,
  action: string,
  outcome: string,
  since: string,
): Promise<number> {
  const row = await db
    .selectFrom('audit_log')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('action', '=', action)
    .where('outcome', '=', outcome)
    .where('at', '>=', since)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** The newest successful lines of these actions (an area's recent activity). */
export async function recentAuditOf(db: Kysely<Database>, actions: string[], limit: number) {
  return db
    .selectFrom('audit_log')
    .select(['action', 'target', 'at'])
    .where('action', 'in', actions)
    .where('outcome', '=', 'success')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}

export interface AuditFilter {
  limit?: number | undefined;
  offset?: number | undefined;
  action?: string | undefined;
  actor?: string | undefined;
  target?: string | undefined;
  from?: string | undefined;
  to?: string | undefined;
  cursor?: number | undefined;
}

const DAY_MS = 86_400_000;
const isDateOnly = (v: string) => /^\d{4}-\d{2}-\d{2}$/.test(v);

/** Lower bound as the stored form (`at` is an ISO string in UTC, so text order is time order). */
export function fromBound(v: string): string {
  return isDateOnly(v) ? `${v}T00:00:00.000Z` : new Date(v).toISOString();
}

/** Upper bound (exclusive): a date means the whole of that day. */
export function toBound(v: string): string {
  if (isDateOnly(v)) return new Date(Date.parse(`${v}T00:00:00.000Z`) + DAY_MS).toISOString();
  return new Date(v).toISOString();
}

/** A plain prefix compare: LIKE would treat `_` and `%` as wildcards and differs in case rules. */
const prefix = (column: 'action' | 'target', value: string) =>
  sql<boolean>`substr(${sql.ref(column)}, 1, ${value.length}) = ${value}`;

/**
 * The audit log, newest first, filtered by who, what (action prefix), target (prefix) and date.
 * Pages by key with `cursor` (older than that id), or by `offset` for the old callers.
 */
export async function listAudit(db: Kysely<Database>, q: AuditFilter): Promise<AuditList> {
  let base = db.selectFrom('audit_log');
  if (q.action) base = base.where(prefix('action', q.action));
  if (q.actor) base = base.where('actor', '=', q.actor);
  if (q.target) base = base.where(prefix('target', q.target));
  if (q.from) base = base.where('at', '>=', fromBound(q.from));
  if (q.to) base = base.where('at', '<', toBound(q.to));
  const limit = q.limit ?? 50;
  let page = base
    .selectAll()
    .orderBy('id', 'desc')
    .limit(limit + 1);
  if (q.cursor !== undefined) page = page.where('id', '<', q.cursor);
  else page = page.offset(q.offset ?? 0);
  // The log grows by every change: its count stops at the cap, so reading the newest page stays cheap.
  const counted = base.select(sql<number>`1`.as('one')).limit(TOTAL_CAP + 1);
  const [rows, count] = await Promise.all([
    page.execute(),
    db
      .selectFrom(counted.as('c'))
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow(),
  ]);
  const n = Number(count.n);
  const more = rows.length > limit;
  const shown = more ? rows.slice(0, limit) : rows;
  return {
    entries: shown.map((r): AuditEntry => ({
      id: Number(r.id),
      at: r.at,
      actor: r.actor,
      action: r.action,
      target: r.target,
      ip: r.ip,
      outcome: r.outcome === 'success' ? 'success' : 'failure',
      details: r.details,
    })),
    total: Math.min(n, TOTAL_CAP),
    ...(n > TOTAL_CAP ? { totalCapped: true } : {}),
    nextCursor: more ? Number(shown[shown.length - 1]!.id) : null,
  };
}
