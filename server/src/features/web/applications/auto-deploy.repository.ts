import type { Kysely, Selectable } from 'kysely';
import type { Database } from '../../../db/schema.ts';
import type { WebAppHookTable } from '../../../db/web.tables.ts';

type Db = Kysely<Database>;
export type HookRow = Selectable<WebAppHookTable>;

/** The SQL of auto deploy: web_app_hooks (secret, last commit, last check) and the delivery ids. */

export async function findHook(db: Db, appId: number): Promise<HookRow | undefined> {
  return db.selectFrom('web_app_hooks').selectAll().where('app_id', '=', appId).executeTakeFirst();
}

async function ensureHook(db: Db, appId: number): Promise<void> {
  await db
    .insertInto('web_app_hooks')
    .values({
      app_id: appId,
      secret_sealed: null,
      secret_created_at: null,
      last_commit: null,
      last_checked_at: null,
      last_result: '',
    })
    .onConflict((oc) => oc.column('app_id').doNothing())
    .execute();
}

export async function saveSecret(db: Db, appId: number, sealed: string, at: string): Promise<void> {
  await ensureHook(db, appId);
  await db
    .updateTable('web_app_hooks')
    .set({ secret_sealed: sealed, secret_created_at: at })
    .where('app_id', '=', appId)
    .execute();
}

export async function noteCheck(db: Db, appId: number, result: string, at: string): Promise<void> {
  await ensureHook(db, appId);
  await db
    .updateTable('web_app_hooks')
    .set({ last_result: result.slice(0, 1000), last_checked_at: at })
    .where('app_id', '=', appId)
    .execute();
}

/**
 * Claims `commit` for a deploy: sets last_commit when it differs (compare-and-set). Answers whether
 * this caller won, so a webhook, a poll and another process never start two deploys of one commit.
 */
export async function claimCommit(db: Db, appId: number, commit: string): Promise<boolean> {
  await ensureHook(db, appId);
  const r = await db
    .updateTable('web_app_hooks')
    .set({ last_commit: commit })
    .where('app_id', '=', appId)
    .where((eb) => eb.or([eb('last_commit', 'is', null), eb('last_commit', '!=', commit)]))
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/** Gives a claim back (the deploy could not start): the next check tries that commit again. */
export async function releaseCommit(db: Db, appId: number, commit: string, before: string | null) {
  await db
    .updateTable('web_app_hooks')
    .set({ last_commit: before })
    .where('app_id', '=', appId)
    .where('last_commit', '=', commit)
    .execute();
}

/**
 * Records a delivery id; answers false when it was already seen inside the window (a replay).
 * Ids older than the window are forgotten first.
 */
export async function recordDelivery(
  db: Db,
  appId: number,
  deliveryId: string,
  now: number,
  windowMs: number,
): Promise<boolean> {
  await db
    .deleteFrom('web_app_hook_deliveries')
    .where('received_at', '<', now - windowMs)
    .execute();
  const r = await db
    .insertInto('web_app_hook_deliveries')
    .values({ app_id: appId, delivery_id: deliveryId, received_at: now })
    .onConflict((oc) => oc.columns(['app_id', 'delivery_id']).doNothing())
    .executeTakeFirst();
  return Number(r.numInsertedOrUpdatedRows ?? 0) === 1;
}
