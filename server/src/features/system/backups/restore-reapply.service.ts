import type { AppDeps } from '../../../app-deps.ts';
import { servicesOf } from '../../../apply/pipeline.ts';
import { retryFor, retryTargets } from '../../../apply/retry-registry.ts';
import type { DaemonHold, DaemonName } from '../../../host/service-control.ts';
import type { Reapplied, RestoreDaemons } from './backup.service.ts';

/** The daemons that write into what a restore puts back: mail into the Maildirs, quota into the database. */
const WRITERS: DaemonName[] = ['postfix', 'dovecot'];

/**
 * After a restore, the running daemons are made to match the restored database and files: each
 * area's target (mail, DNS, …) is applied again through the apply pipeline, as its Retry does
 * (render from the database, prove with the real checker, swap the changed files, reload the
 * daemons of the files it changed). The pipeline compares with the files the restore has just put
 * back, so it may find nothing to change ("No file had to change") and reload nothing: every daemon
 * in `reload` (whose files the restore put back) is then reloaded here, and each entry says what
 * really happened.
 */
export function reapplyAfterRestore(deps: AppDeps) {
  return async (reload: DaemonName[]): Promise<Reapplied[]> => {
    const out: Reapplied[] = [];
    for (const target of retryTargets(deps)) {
      try {
        const o = await retryFor(deps, target)!();
        out.push({ target, kind: 'apply', ok: o.state === 'applied', message: o.message });
      } catch (err) {
        out.push({ target, kind: 'apply', ok: false, message: (err as Error).message });
      }
    }
    const services = servicesOf(deps);
    for (const d of reload) {
      const r = await services.reload(d);
      out.push({
        target: d,
        kind: 'reload',
        ok: r.ok,
        message: r.output,
        ...(r.attempted ? {} : { skipped: true }),
      });
    }
    return out;
  };
}

/**
 * A restore's stop is marked as intended (issue 22 #12) for this long, renewed every RENEW_MS while
 * the restore runs: the daemons say "stopped for restore" and the alerts engine raises no "Service
 * down"; a restore whose process died stops renewing, and the mark ends on its own.
 */
export const RESTORE_HOLD: DaemonHold = { why: 'restore', forMs: 5 * 60_000 };
const RENEW_MS = 60_000;

/**
 * Local mode: the restore stops the mail daemons Mailroom runs (its supervisor) while it puts the
 * database and the Maildirs back, and starts them again on the restored files. Where systemd runs
 * them (no `control`), nothing is stopped: the restore reloads them instead.
 */
export function restoreDaemons(deps: AppDeps): RestoreDaemons {
  let held: DaemonName[] = [];
  let renew: NodeJS.Timeout | null = null;
  const endHolds = async () => {
    if (renew) clearInterval(renew);
    renew = null;
    const services = servicesOf(deps);
    for (const name of held) await services.hold?.(name, null).catch(() => undefined);
    held = [];
  };
  return {
    async pause() {
      const services = servicesOf(deps);
      if (!services.control) return [];
      const running = (await services.states()).filter(
        (s) => WRITERS.includes(s.name) && s.state === 'running',
      );
      const out: Reapplied[] = [];
      for (const s of running) {
        // Marked before it stops: no reading ever sees it down.
        await services.hold?.(s.name, RESTORE_HOLD);
        held.push(s.name);
        const r = await services.control(s.name, 'stop');
        out.push({ target: s.name, kind: 'stop', ok: r.ok, message: r.output });
      }
      if (held.length && services.hold) {
        const names = [...held];
        renew = setInterval(() => {
          for (const n of names) void services.hold?.(n, RESTORE_HOLD).catch(() => undefined);
        }, RENEW_MS);
        renew.unref();
      }
      return out;
    },
    async resume(names) {
      const services = servicesOf(deps);
      const out: Reapplied[] = [];
      try {
        for (const name of names) {
          const r = services.control
            ? await services.control(name as DaemonName, 'start')
            : { ok: false, output: `${name} cannot be started from here.` };
          out.push({ target: name, kind: 'restart', ok: r.ok, message: r.output });
        }
      } finally {
        // Running again ends the mark by itself; one that did not start is down, and says so.
        await endHolds();
      }
      return out;
    },
  };
}
