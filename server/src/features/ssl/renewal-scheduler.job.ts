import { JOB_KIND_SSL } from '@mailroom/contract/ssl';
import { hasActiveJob } from '../jobs/jobs.public.ts';
import { startRenewExpiring } from './certificate-jobs.service.ts';
import type { SslContext } from './ssl-context.types.ts';
import { markRenewalChecked, readSslSettings } from './ssl-settings.repository.ts';

export const SCHEDULER_ACTOR = 'renewal scheduler';

/**
 * One renewal check if it is due: auto-renewal on, the last scheduled check older than the
 * settings' interval (its time is kept in the settings row, so a restart keeps the rhythm), and no
 * renewal job queued or running anywhere (the job table). Decided under the `ssl.renewal` lock: two instances never both start.
 */
export async function renewalCheck(
  ctx: SslContext,
  now = Date.now(),
): Promise<'off' | 'not-due' | 'busy' | 'none' | number> {
  const { settings } = await readSslSettings(ctx.db);
  if (!settings.enableAutoRenewal) return 'off';
  const locks = ctx.deps.locks!;
  return locks.withLock(
    'ssl.renewal',
    async () => {
      const kinds = [JOB_KIND_SSL.renew, JOB_KIND_SSL.renewExpiring];
      if (await hasActiveJob(ctx.db, kinds)) return 'busy';
      const lastCheck = Number((await readSslSettings(ctx.db)).renewalCheckedAt ?? 0);
      if (now - lastCheck < settings.renewalCheckInterval * 3_600_000) return 'not-due';
      await markRenewalChecked(ctx.db, now);
      const job = await startRenewExpiring(ctx, SCHEDULER_ACTOR, true);
      if (!job) return 'none';
      return job.id;
    },
    { waitMs: 5_000 },
  );
}

export function startRenewalScheduler(ctx: SslContext, onError: (err: unknown) => void): () => void {
  const timer = setInterval(() => {
    renewalCheck(ctx).catch(onError);
  }, ctx.deps.config.acme.renewalTickSeconds * 1000);
  timer.unref();
  return () => clearInterval(timer);
}
