import type { SystemUpdate, UpdatesAnswer } from '@mailroom/contract/system-admin';
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.ts';
import { type Apt, installedVersion } from '../../../host/apt.ts';
import { conflict } from '../../../http/errors.ts';
import type { JobContext, JobOutcome } from '../system-job.types.ts';
import { humanSize } from '../backups/backup.service.ts';
import { lastFinishedId, latestSucceeded } from '../../jobs/jobs.public.ts';

type Db = Kysely<Database>;
export const CHECK_JOB = 'system.updates.check';
export const INSTALL_JOB = 'system.updates.install';
export const REMOVE_JOB = 'system.updates.remove';

export function updatePriority(suite: string, debPriority: string): SystemUpdate['priority'] {
  if (/security/i.test(suite)) return 'security';
  return debPriority === 'required' || debPriority === 'important' ? 'important' : 'optional';
}

interface InstalledEntry {
  package: string;
  from: string;
  to: string;
  suite: string;
  priority: SystemUpdate['priority'];
  description: string;
  size: number;
}

async function removable(apt: Apt, pkg: string): Promise<boolean> {
  const [rec] = await apt.show([pkg]);
  if (rec && (rec.essential || rec.priority === 'required' || rec.priority === 'important')) return false;
  const removed = await apt.simulateRemove(pkg).catch(() => []);
  return removed.length === 1 && removed[0] === pkg;
}

/** Upgradable packages now, and the updates installed through Mailroom (latest first). */
export async function listUpdates(db: Db, apt: Apt, signal?: AbortSignal): Promise<UpdatesAnswer> {
  const o = signal ? { signal } : {};
  const upgradable = await apt.upgradable(o);
  const records = await apt.show(
    upgradable.map((u) => `${u.package}=${u.availableVersion}`),
    o,
  );
  const rec = new Map(records.map((r) => [`${r.package}=${r.version}`, r]));
  const updates: SystemUpdate[] = upgradable.map((u) => {
    const r = rec.get(`${u.package}=${u.availableVersion}`);
    return {
      id: u.package,
      package: u.package,
      currentVersion: u.currentVersion,
      availableVersion: u.availableVersion,
      priority: updatePriority(u.suite, r?.priority ?? 'optional'),
      description: r?.description ?? '',
      size: r ? humanSize(r.size) : 'unknown',
      source: u.suite,
      installed: false,
      removable: false,
    };
  });
  const pending = new Set(updates.map((u) => u.package));
  const jobs = await latestSucceeded(db, INSTALL_JOB, 50);
  const seen = new Set<string>();
  for (const j of jobs) {
    const installed = (JSON.parse(j.result ?? '{}') as { installed?: InstalledEntry[] }).installed ?? [];
    for (const e of installed) {
      if (seen.has(e.package) || pending.has(e.package)) continue;
      seen.add(e.package);
      // Only while that version is still the one installed.
      if ((await installedVersion(e.package)) !== e.to) continue;
      updates.push({
        id: `${e.package}@${e.to}`,
        package: e.package,
        currentVersion: e.to,
        availableVersion: e.to,
        priority: e.priority,
        description: e.description,
        size: humanSize(e.size),
        source: e.suite,
        installed: true,
        installDate: new Date(Number(j.finished_at)).toISOString(),
        removable: await removable(apt, e.package),
      });
    }
  }
  const [check] = await latestSucceeded(db, CHECK_JOB, 1);
  return {
    updates,
    checkedAt: check?.finished_at ? new Date(Number(check.finished_at)).toISOString() : null,
  };
}

/**
 * What the upgradable list depends on besides the machine itself: the last check, install or
 * uninstall that ended. A reading older than it is out of date, in whichever process it was made.
 */
export async function updatesVersion(db: Db): Promise<string> {
  return String(await lastFinishedId(db, [CHECK_JOB, INSTALL_JOB, REMOVE_JOB]));
}

function liveOutput(ctx: JobContext) {
  const tail: string[] = [];
  return {
    tail,
    onLine: (line: string) => {
      tail.push(line);
      if (tail.length > 200) tail.shift();
      ctx.progress({ phase: line.slice(0, 300) });
    },
  };
}

export function checkJob(apt: Apt) {
  return async (_input: unknown, ctx: JobContext): Promise<JobOutcome> => {
    const out = liveOutput(ctx);
    await apt.update({ signal: ctx.signal, onLine: out.onLine });
    const n = (await apt.upgradable()).length;
    return {
      result: { upgradable: n, output: out.tail },
      summary: `${n} update${n === 1 ? '' : 's'} available`,
    };
  };
}

export function installJob(apt: Apt) {
  return async (input: unknown, ctx: JobContext): Promise<JobOutcome> => {
    const wanted = (input as { packages?: string[] }).packages ?? [];
    const upgradable = await apt.upgradable();
    const chosen = wanted.length ? upgradable.filter((u) => wanted.includes(u.package)) : upgradable;
    const missing = wanted.filter((w) => !upgradable.some((u) => u.package === w));
    if (missing.length)
      throw new Error(`No update is available for ${missing.join(', ')}; check for updates first.`);
    if (!chosen.length) return { result: { installed: [], output: [] }, summary: 'Nothing to install' };
    const records = await apt.show(chosen.map((u) => `${u.package}=${u.availableVersion}`));
    const out = liveOutput(ctx);
    ctx.progress({
      phase: `Installing ${chosen.map((c) => c.package).join(', ')}`,
      processed: 0,
      total: chosen.length,
    });
    await apt.install(
      chosen.map((c) => `${c.package}=${c.availableVersion}`),
      { signal: ctx.signal, onLine: out.onLine },
    );
    const installed: InstalledEntry[] = [];
    for (const c of chosen) {
      const now = await installedVersion(c.package);
      if (now !== c.availableVersion)
        throw new Error(
          `${c.package} is at ${now ?? 'nothing'} after the install, not ${c.availableVersion}`,
        );
      const r = records.find((x) => x.package === c.package);
      installed.push({
        package: c.package,
        from: c.currentVersion,
        to: c.availableVersion,
        suite: c.suite,
        priority: updatePriority(c.suite, r?.priority ?? 'optional'),
        description: r?.description ?? '',
        size: r?.size ?? 0,
      });
    }
    ctx.progress({ processed: chosen.length, total: chosen.length, phase: 'Done' });
    return {
      result: { installed, output: out.tail },
      summary: `Installed ${installed.map((i) => `${i.package} ${i.to}`).join(', ')}`,
    };
  };
}

/** Refuses packages whose removal does not make sense (essential, required, or takes others along). */
export async function checkRemovable(apt: Apt, pkg: string): Promise<void> {
  if (!(await installedVersion(pkg))) throw conflict(`${pkg} is not installed.`);
  const [rec] = await apt.show([pkg]);
  if (rec?.essential || rec?.priority === 'required' || rec?.priority === 'important')
    throw conflict(
      `${pkg} is an essential part of the system (${rec.essential ? 'Essential' : `priority ${rec.priority}`}); it cannot be uninstalled here.`,
    );
  const removed = await apt.simulateRemove(pkg);
  const others = removed.filter((r) => r !== pkg);
  if (others.length)
    throw conflict(
      `Uninstalling ${pkg} would also remove ${others.slice(0, 10).join(', ')}${others.length > 10 ? '…' : ''}; it is refused here.`,
    );
}

export function removeJob(apt: Apt) {
  return async (input: unknown, ctx: JobContext): Promise<JobOutcome> => {
    const { package: pkg } = input as { package: string };
    await checkRemovable(apt, pkg);
    const out = liveOutput(ctx);
    await apt.remove(pkg, { signal: ctx.signal, onLine: out.onLine });
    return { result: { removed: pkg, output: out.tail }, summary: `Uninstalled ${pkg}` };
  };
}
