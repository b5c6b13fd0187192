import { LockTimeoutError } from '../../../db/locks.ts';
import type { Jobs as JobRunner } from '../system-job.types.ts';
import { BACKUP_JOB, type BackupEnv } from './backup.service.ts';
import { readSettingValues, settingNumber } from '../settings/system-settings.service.ts';
import { siteBackupSpecs } from './backup-source.registry.ts';
import { SITE_BACKUP_JOB } from './site-backup.service.ts';
import { insertBackupRow, insertSiteBackupRow, slotTaken } from './backup.repository.ts';
import { backupLabel } from './app-backup-scope.rules.ts';

/** Date, hour and weekday (0 = Sunday) at `now` in the time zone `tz`. */
export function localParts(now: Date, tz: string): { date: string; hour: number; weekday: number } {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-CA', {
      timeZone: tz,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      hourCycle: 'h23',
      weekday: 'short',
    })
      .formatToParts(now)
      .map((p) => [p.type, p.value]),
  );
  const weekday = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'].indexOf(parts.weekday!);
  return { date: `${parts.year}-${parts.month}-${parts.day}`, hour: Number(parts.hour), weekday };
}

/**
 * One look at the schedule: when a scheduled backup is due and none was made for this slot, queue
 * it. The slot is recorded on the backup row (`schedule:<date>`), so a restart or a second
 * process never makes it twice; the lock keeps two processes from deciding at the same moment.
 * Weekly: a full backup on Sunday; daily: full on Sunday, incremental on the other days.
 */
export async function scheduleTick(
  env: BackupEnv,
  jobs: JobRunner,
  now = new Date(),
): Promise<number | null> {
  const db = env.database.db;
  const s = await readSettingValues(db);
  const frequency = s.backupFrequency;
  if (frequency !== 'daily' && frequency !== 'weekly') return null;
  const { date, hour, weekday } = localParts(now, s.timezone ?? 'UTC');
  if (hour < settingNumber(s, 'backupHour')) return null;
  if (frequency === 'weekly' && weekday !== 0) return null;
  const trigger = `schedule:${date}`;
  try {
    return await env.locks.withLock(
      'system.backup.schedule',
      async () => {
        if (await slotTaken(db, trigger)) return null;
        const type = weekday === 0 || frequency === 'weekly' ? 'full' : 'incremental';
        const id = await insertBackupRow(db, type, `Scheduled ${frequency} backup`, trigger);
        await jobs.enqueue(BACKUP_JOB, `Scheduled ${type} backup`, null, { backupId: id });
        return id;
      },
      { waitMs: 1000 },
    );
  } catch (err) {
    if (err instanceof LockTimeoutError) return null;
    throw err;
  }
}

/**
 * One look at the sites' own schedules (sites with Enable Backup): each site whose slot is due and
 * has no backup for it gets one, at the system backups' hour and time zone: daily every day,
 * weekly on Sunday, monthly on the 1st, never not at all. The slot is on the row
 * (`site:<id>:<date>`), so a restart or a second process never makes it twice. Answers the
 * backups queued.
 */
export async function siteScheduleTick(env: BackupEnv, jobs: JobRunner, now = new Date()): Promise<number[]> {
  const sites = (await siteBackupSpecs(env.host)).filter((x) => x.frequency !== 'never');
  if (!sites.length) return [];
  const db = env.database.db;
  const s = await readSettingValues(db);
  const { date, hour, weekday } = localParts(now, s.timezone ?? 'UTC');
  if (hour < settingNumber(s, 'backupHour')) return [];
  const due = sites.filter(
    (x) =>
      x.frequency === 'daily' ||
      (x.frequency === 'weekly' && weekday === 0) ||
      (x.frequency === 'monthly' && date.endsWith('-01')),
  );
  if (!due.length) return [];
  try {
    return await env.locks.withLock(
      'system.backup.schedule',
      async () => {
        const made: number[] = [];
        for (const site of due) {
          const trigger = `site:${site.id}:${date}`;
          if (await slotTaken(db, trigger)) continue;
          const id = await insertSiteBackupRow(
            db,
            site,
            `Scheduled ${site.frequency} backup of ${backupLabel(site)}`,
            trigger,
            now.getTime(),
          );
          await jobs.enqueue(SITE_BACKUP_JOB, `Scheduled backup of ${backupLabel(site)}`, null, {
            backupId: id,
          });
          made.push(id);
        }
        return made;
      },
      { waitMs: 1000 },
    );
  } catch (err) {
    if (err instanceof LockTimeoutError) return [];
    throw err;
  }
}

export function startBackupScheduler(
  env: BackupEnv,
  jobs: JobRunner,
  intervalMs: number,
  onError: (err: unknown) => void,
): () => void {
  const timer = setInterval(() => {
    void scheduleTick(env, jobs).catch(onError);
    void siteScheduleTick(env, jobs).catch(onError);
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
