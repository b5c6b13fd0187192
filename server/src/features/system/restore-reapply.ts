import type { AppDeps } from '../../app-deps.ts';
import { servicesOf } from '../../apply/pipeline.ts';
import { retryFor, retryTargets } from '../../apply/retry-registry.ts';
import type { DaemonName } from '../../host/service-control.ts';
import type { Reapplied } from './backups.service.ts';

const DAEMONS: DaemonName[] = ['postfix', 'dovecot', 'rspamd', 'named'];

/**
 * After a restore, the running daemons are made to match the restored database: each area's
 * target (mail, DNS, …) is applied again through the apply pipeline, as its Retry does (render from
 * the database, prove with the real checker, swap the changed files, reload). When the restore put
 * daemon files or keys back itself (system mode), the pipeline may find nothing left to change, so
 * every daemon is then reloaded to read them.
 */
export function reapplyAfterRestore(deps: AppDeps) {
  return async (hostFilesChanged: boolean): Promise<Reapplied[]> => {
    const out: Reapplied[] = [];
    for (const target of retryTargets(deps)) {
      try {
        const o = await retryFor(deps, target)!();
        out.push({ target, ok: o.state === 'applied', message: o.message });
      } catch (err) {
        out.push({ target, ok: false, message: (err as Error).message });
      }
    }
    if (hostFilesChanged) {
      const services = servicesOf(deps);
      for (const d of DAEMONS) {
        const r = await services.reload(d);
        out.push({ target: `reload ${d}`, ok: r.ok, message: r.output });
      }
    }
    return out;
  };
}
