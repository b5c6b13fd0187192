import type { DeployTimings } from '@mailroom/contract/web/applications';
import { removeTree } from '../../../host/app-process.ts';
import { findAppById, patchAppRuntime } from './application.repository.ts';
import type { ApplicationService } from './application.service.ts';
import type { DeployLogger } from './deploy-log.service.ts';
import { releasesToPrune } from './app.layout.ts';
import { findRelease, listReleases, patchRelease, type ReleaseRow } from './release.repository.ts';

/**
 * A deploy's or rollback's release bookkeeping (moved out of deploy.job.ts): recording how it
 * ended, undoing a failed one, and pruning old release folders.
 */

export async function finishRelease(
  svc: ApplicationService,
  rel: ReleaseRow,
  state: 'live' | 'failed',
  timings: DeployTimings,
  log: DeployLogger,
  message: string,
) {
  await log.flush();
  await patchRelease(svc.db, Number(rel.id), {
    state,
    timings: JSON.stringify(timings),
    message,
    build_log: log.all.join('\n'),
    finished_at: new Date().toISOString(),
  });
}

export async function failRelease(
  svc: ApplicationService,
  appId: number,
  rel: ReleaseRow,
  timings: DeployTimings,
  log: DeployLogger,
  err: unknown,
) {
  const tail = (err as { tail?: string[] }).tail ?? [];
  for (const l of tail) log.line('stderr', l);
  const message = err instanceof Error ? err.message : String(err);
  log.info(`Failed: ${message}`);
  await finishRelease(svc, rel, 'failed', timings, log, message);
  const row = await findAppById(svc.db, appId);
  if (row)
    await patchAppRuntime(svc.db, appId, {
      status: 'error',
      status_message: log.tail(20),
      deploy_job_id: null,
    });
  // A deploy's folder that never went live is removed (a rollback's folder belongs to its source).
  if (rel.trigger === 'deploy') {
    const r = await findRelease(svc.db, appId, Number(rel.id));
    if (r?.path) {
      await removeTree(svc.ctx.deps.host.path(r.path)).catch(() => undefined);
      await patchRelease(svc.db, Number(rel.id), { path: null });
    }
  }
}

/** Keeps RELEASE_RETENTION release folders (the live one included); older folders are deleted. */
export async function pruneReleases(
  svc: ApplicationService,
  appId: number,
  liveId: number,
  log: DeployLogger,
): Promise<void> {
  const all = (await listReleases(svc.db, appId)).map((r) => ({ ...r, id: Number(r.id) }));
  for (const r of releasesToPrune(all, liveId)) {
    await removeTree(svc.ctx.deps.host.path(r.path!)).catch(() => undefined);
    for (const same of all.filter((x) => x.path === r.path))
      await patchRelease(svc.db, same.id, { path: null, disk_usage: 0 });
    log.info(`Pruned release ${r.number} (${r.path})`);
  }
}
