import { ERROR_CODES } from '@mailroom/contract/errors';
import type { Kysely } from 'kysely';
import type { AppDeps } from '../app-deps.ts';
import type { Database } from '../db/schema.ts';
import { CommandServiceControl } from '../host/command-service-control.ts';
import type { StagedFile } from '../host/host.ts';
import type { ReloadResult, ServiceControl } from '../host/service-control.ts';
import { AppError, checkFailed } from '../http/errors.ts';
import { applyHooks, defaultRename } from './apply-hooks.ts';
import { type ChangeAudit, currentActor, writeChangeAudit } from './audit-scope.ts';
import { StagedSet } from '../host/staged-set.ts';
import type { ApplyFile, FileChanges, ProveResult } from './file-set.ts';
import { type ApplyOutcome, type ApplyStep, writeOutcome } from './outcome.repository.ts';
import { withTargetLock } from './target-lock.ts';

type Db = Kysely<Database>;

/** validate: inside a dry-run transaction that is rolled back; commit: for real. */
export type ApplyPhase = 'validate' | 'commit';

/** The whole file set of a target as the database says it should be. */
export interface RenderSet {
  files: ApplyFile[];
  /** System paths that must no longer exist (a removed zone's file). */
  remove?: string[];
}

/** A target: the files one checker proves and one set of daemons reads. */
export interface ApplyTarget {
  name: string;
  /** Proves the staged set with the real checker (every rendered file staged). No connection is held. */
  prove(staged: StagedFile[]): Promise<ProveResult>;
  /** Makes the daemons read the changed files; called only when a file changed. */
  reload?(changes: FileChanges, services: ServiceControl): Promise<ReloadResult[]>;
}

export interface ApplySpec<T> {
  target: ApplyTarget;
  /**
   * The change's database writes. Run twice: first in a transaction that is rolled back, to render
   * and prove the result before anything is saved (a refused change is never committed), then for
   * real with its audit line, in one transaction. Absent: apply the committed state (retry, start).
   */
  change?: (trx: Db, phase: ApplyPhase) => Promise<T>;
  /** Renders from the database given: the dry-run transaction, then the committed database. */
  render: (db: Db, value: T | undefined, phase: ApplyPhase) => Promise<RenderSet>;
  /** The audit line written in the commit transaction (before/after values for settings). */
  audit?: (value: T) => ChangeAudit;
  /** Refused by the checker before the commit: the message of the 422 answer. */
  refusedMessage?: (proof: ProveResult) => string;
}

export interface ApplyReport<T> {
  value: T;
  outcome: ApplyOutcome;
  /** What the checker said (null: nothing had to be proved). */
  proof: ProveResult | null;
  reloads: ReloadResult[];
}

const defaultServices = new WeakMap<object, ServiceControl>();

/** `deps.services`, or the command-based control that reloads when `host.reloadEnabled`. */
export function servicesOf(deps: AppDeps): ServiceControl {
  if (deps.services) return deps.services;
  let s = defaultServices.get(deps.host);
  if (!s) {
    s = new CommandServiceControl(deps.host);
    defaultServices.set(deps.host, s);
  }
  return s;
}

/** Thrown to roll the dry-run transaction back; carries what it rendered. */
class DryRun<R> extends Error {
  constructor(readonly result: R) {
    super('dry run');
  }
}

/** Runs `fn` in a transaction that is always rolled back, and answers what it returned. */
async function dryRun<R>(db: Db, fn: (trx: Db) => Promise<R>): Promise<R> {
  try {
    await db.transaction().execute(async (trx) => {
      throw new DryRun(await fn(trx));
    });
  } catch (err) {
    if (err instanceof DryRun) return err.result as R;
    throw err;
  }
  throw new Error('unreachable');
}

const sameFiles = (a: ApplyFile[], b: Map<string, string>) =>
  a.length === b.size && a.every((f) => b.get(f.path) === f.content);

async function prove(deps: AppDeps, target: ApplyTarget, staged: StagedFile[]): Promise<ProveResult> {
  const hook = applyHooks(deps).prove;
  const real = () => target.prove(staged);
  return hook ? hook(target.name, staged, real) : real();
}

/**
 * The one apply pipeline: validate (the change rendered from a rolled-back transaction and proved
 * by the real checker) → commit the change with its audit line in one transaction → render from
 * the committed state → prove again if that differs from what was proved → swap only the changed
 * files atomically (backups kept) → reload → record the outcome. Applies of one target are
 * serialised; no database connection is held while a checker or reload runs.
 *
 * A refused check before the commit throws 422 CHECK_FAILED and saves nothing. A failure after the
 * commit (check, swap or reload) restores every file to the last good set and records the target
 * as "failed": saved, not live, with Retry; `assertApplied` turns that into the 502 answer.
 */
export function applyChange<T>(deps: AppDeps, spec: ApplySpec<T>): Promise<ApplyReport<T>> {
  // In-process first (cheap), then across every process on the database (db/locks.ts).
  const run = () => applyLocked(deps, spec);
  return withTargetLock(`${deps.host.root}:${spec.target.name}`, () =>
    deps.locks ? deps.locks.withLock(`apply:${spec.target.name}`, run) : run(),
  );
}

async function applyLocked<T>(deps: AppDeps, spec: ApplySpec<T>): Promise<ApplyReport<T>> {
  const { db } = deps.database;
  const { host } = deps;
  const actor = currentActor();
  const name = spec.target.name;
  let proved: Map<string, string> | null = null;
  let proof: ProveResult | null = null;

  if (spec.change) {
    const change = spec.change;
    const set = await dryRun(db, async (trx) => spec.render(trx, await change(trx, 'validate'), 'validate'));
    const staged = await StagedSet.create(host, set.files, set.remove);
    try {
      if (!staged.empty) {
        proof = await prove(deps, spec.target, staged.staged);
        if (!proof.ok) {
          await writeOutcome(db, {
            target: name,
            state: 'refused',
            step: 'prove',
            message: 'The checker refused the change; nothing was saved and the live files are unchanged.',
            output: proof.output,
            changed: { written: [], removed: [] },
            at: new Date().toISOString(),
            actor,
          });
          throw checkFailed(
            spec.refusedMessage?.(proof) ?? 'The checker refused the change; nothing was saved.',
            proof.output,
          );
        }
      }
      proved = new Map(set.files.map((f) => [f.path, f.content]));
    } finally {
      await staged.discard();
    }
  }

  let markAudited: (() => void) | null = null;
  const value = await db.transaction().execute(async (trx) => {
    const v = spec.change ? await spec.change(trx, 'commit') : (undefined as T);
    if (spec.audit) markAudited = await writeChangeAudit(trx, spec.audit(v));
    await writeOutcome(trx, {
      target: name,
      state: 'pending',
      step: null,
      message: 'Applying…',
      output: '',
      changed: { written: [], removed: [] },
      at: new Date().toISOString(),
      actor,
    });
    await applyHooks(deps).beforeCommit?.(name);
    return v;
  });
  (markAudited as (() => void) | null)?.();

  try {
    const set = await spec.render(db, value, 'commit');
    const report = await goLive(deps, spec.target, set, proved, proof, actor);
    return { value, ...report };
  } catch (err) {
    // Not left "pending": the change is saved, nothing went live, and the outcome says why.
    await writeOutcome(db, {
      target: name,
      state: 'failed',
      step: 'prove',
      message: notLive('the files could not be rendered'),
      output: err instanceof Error ? err.message : String(err),
      changed: { written: [], removed: [] },
      at: new Date().toISOString(),
      actor,
    });
    throw err;
  }
}

/** Applies the committed state of a target again (Retry, the startup render, new DKIM keys). */
export function applyCommitted(
  deps: AppDeps,
  target: ApplyTarget,
  render: (db: Db) => Promise<RenderSet>,
): Promise<ApplyReport<undefined>> {
  return applyChange<undefined>(deps, { target, render: (db) => render(db) });
}

async function goLive(
  deps: AppDeps,
  target: ApplyTarget,
  set: RenderSet,
  proved: Map<string, string> | null,
  earlierProof: ProveResult | null,
  actor: string | null,
): Promise<Omit<ApplyReport<unknown>, 'value'>> {
  const { db } = deps.database;
  const at = () => new Date().toISOString();
  const finish = async (
    state: 'applied' | 'failed',
    step: ApplyStep | null,
    message: string,
    output: string,
    changed: FileChanges,
    proof: ProveResult | null,
    reloads: ReloadResult[],
  ) => {
    const outcome: ApplyOutcome = {
      target: target.name,
      state,
      step,
      message,
      output,
      changed,
      at: at(),
      appliedAt: null,
      actor,
    };
    await writeOutcome(db, outcome);
    return { outcome: { ...outcome, appliedAt: state === 'applied' ? outcome.at : null }, proof, reloads };
  };

  const staged = await StagedSet.create(deps.host, set.files, set.remove);
  const changes = staged.changes;
  if (staged.empty) {
    await staged.discard();
    return finish('applied', null, 'No file had to change.', '', changes, earlierProof, []);
  }
  let proof = earlierProof;
  if (!proved || !sameFiles(set.files, proved)) {
    try {
      proof = await prove(deps, target, staged.staged);
    } catch (err) {
      await staged.discard();
      throw err;
    }
    if (!proof.ok) {
      await staged.discard();
      return finish(
        'failed',
        'prove',
        notLive('the checker refused the files'),
        proof.output,
        changes,
        proof,
        [],
      );
    }
  }

  let swap;
  try {
    swap = await staged.swap(applyHooks(deps).rename ?? defaultRename);
  } catch (err) {
    return finish(
      'failed',
      'swap',
      notLive('the files could not be put in place'),
      String(err),
      changes,
      proof,
      [],
    );
  }

  const services = servicesOf(deps);
  const reloads = target.reload ? await target.reload(changes, services) : [];
  const badReload = reloads.filter((r) => !r.ok);
  if (badReload.length) {
    await swap.restore();
    // Back on the last good files: the daemons read them again (best effort, its words kept).
    const again = target.reload ? await target.reload(changes, services) : [];
    const output = [...reloads, ...again.map((r) => ({ ...r, output: `after restoring: ${r.output}` }))]
      .map((r) => r.output)
      .join('\n');
    return finish('failed', 'reload', notLive('the reload failed'), output, changes, proof, reloads);
  }
  await swap.commit();
  const output = [proof?.output ?? '', ...reloads.map((r) => r.output)].filter(Boolean).join('\n');
  return finish('applied', null, describeChanges(changes), output, changes, proof, reloads);
}

const notLive = (why: string) =>
  `Saved, but not live: ${why}. The previous files are back in place; retry once the cause is fixed.`;

function describeChanges(c: FileChanges): string {
  const n = c.written.length + c.removed.length;
  return `${n} file${n === 1 ? '' : 's'} changed and live.`;
}

/** The answer for an apply that did not go live after its commit: 502 APPLY_FAILED, saying so. */
export function assertApplied(outcome: ApplyOutcome): void {
  if (outcome.state === 'applied') return;
  if (outcome.step === 'prove')
    throw new AppError(
      422,
      ERROR_CODES.CHECK_FAILED,
      outcome.message,
      { output: outcome.output, outcome },
      true,
    );
  throw new AppError(
    502,
    ERROR_CODES.APPLY_FAILED,
    outcome.message,
    { output: outcome.output, outcome },
    true,
  );
}
