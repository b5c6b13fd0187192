import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { FileChanges } from './file-set.ts';

/**
 * applied: the target's files are live and match the database.
 * failed: a change is saved but NOT live (a check, the swap or a reload failed after the commit);
 *   the last good files are in place; Retry (POST /api/apply/<target>/retry) applies it again.
 * refused: the checker refused a change before it was saved; nothing changed.
 * pending: an apply is running (or the server stopped during one; Retry finishes it).
 */
export type ApplyState = 'applied' | 'failed' | 'refused' | 'pending';
export type ApplyStep = 'prove' | 'swap' | 'reload' | 'commit';

export interface ApplyOutcome {
  target: string;
  state: ApplyState;
  step: ApplyStep | null;
  message: string;
  output: string;
  changed: FileChanges;
  at: string;
  appliedAt: string | null;
  actor: string | null;
}

type Db = Kysely<Database>;

export async function writeOutcome(db: Db, o: Omit<ApplyOutcome, 'appliedAt'>): Promise<void> {
  const row = {
    state: o.state,
    step: o.step,
    message: o.message.slice(0, 2000),
    output: o.output.slice(0, 20_000),
    changed: JSON.stringify([...o.changed.written, ...o.changed.removed.map((p) => `-${p}`)].slice(0, 500)),
    at: o.at,
    actor: o.actor,
    ...(o.state === 'applied' ? { applied_at: o.at } : {}),
  };
  await db
    .insertInto('apply_outcomes')
    .values({ target: o.target, applied_at: null, ...row })
    .onConflict((oc) => oc.column('target').doUpdateSet(row))
    .execute();
}

function toOutcome(r: Database['apply_outcomes']): ApplyOutcome {
  const list = JSON.parse(r.changed) as string[];
  return {
    target: r.target,
    state: r.state as ApplyState,
    step: r.step as ApplyStep | null,
    message: r.message,
    output: r.output,
    changed: {
      written: list.filter((p) => !p.startsWith('-')),
      removed: list.filter((p) => p.startsWith('-')).map((p) => p.slice(1)),
    },
    at: r.at,
    appliedAt: r.applied_at,
    actor: r.actor,
  };
}

export async function readOutcome(db: Db, target: string): Promise<ApplyOutcome | null> {
  const r = await db.selectFrom('apply_outcomes').selectAll().where('target', '=', target).executeTakeFirst();
  return r ? toOutcome(r) : null;
}

export async function listOutcomes(db: Db): Promise<ApplyOutcome[]> {
  return (await db.selectFrom('apply_outcomes').selectAll().orderBy('target').execute()).map(toOutcome);
}
