import path from 'node:path';
import type { BackupStatusAnswer } from '@mailroom/contract/system-admin';
import type { Kysely, Selectable } from 'kysely';
import type { DatabaseHandle } from '../../../db/database.ts';
import type { Locks } from '../../../db/locks.ts';
import type { Database } from '../../../db/schema.ts';
import type { SystemBackupTable } from '../../../db/system.tables.ts';
import { auditedTransaction } from '../../../apply/audit-scope.ts';
import { conflict, notFound } from '../../../http/errors.ts';
import type { Host } from '../../../host/host.ts';
import type { DaemonName } from '../../../host/service-control.ts';
import { makeFolder, moveFile, sizeOf, sizeOrNull } from '../../../host/data-files.ts';
import { removeOneFile, removeTree } from '../../../host/disk-files.ts';
import { runCommand } from '../../../host/run-command.ts';
import type { JobContext, JobOutcome } from '../system-job.types.ts';
import { backupSourcePaths } from './backup-source.registry.ts';
import {
  ARCHIVE_FORMAT,
  appliedMigrations,
  archiveFiles,
  checkDatabasePart,
  countEntries,
  DamagedArchive,
  dumpDatabase,
  excludedTopNames,
  extractFiles,
  type Manifest,
  packArchive,
  sha256File,
  unpackArchive,
} from './backup-archive.service.ts';
import {
  ARCHIVE_SKIPS,
  archiveHostFiles,
  HOST_PART,
  hostOutsideData,
  hostRelative,
} from './backup-host-files.service.ts';
import { readSettingValues, settingNumber } from '../settings/system-settings.service.ts';
import {
  completedBackupOnTopOf,
  completedSystemBackups,
  deleteBackupRow,
  humanSize,
  insertBackupRow,
  lastVerifiedBackup,
  latestBackups,
  latestCompletedSystemBackupBefore,
  markBackupExpired,
  markBackupFailed,
  markSystemBackupCompleted,
  readBackupRow,
  recordVerification,
} from './backup.repository.ts';

export { humanSize, insertBackupRow };

type Db = Kysely<Database>;
export const BACKUP_JOB = 'system.backup.create';
export const VERIFY_JOB = 'system.backup.verify';
export const RESTORE_JOB = 'system.backup.restore';
const DAY = 86_400_000;

/** What a restore did to make the running daemons match the restored database. */
export interface Reapplied {
  /** An apply target (mail, dns…) or a daemon. */
  target: string;
  /** stop/restart: a mail daemon stopped and started again around the restore; apply: a target
   * applied again through the apply pipeline; reload: a daemon told to read its restored files. */
  kind: 'stop' | 'restart' | 'apply' | 'reload';
  ok: boolean;
  message: string;
  /** A reload that was not attempted (the daemon is not run by Mailroom, reloads are off…): `message` says why. */
  skipped?: boolean;
}

/** Stops the daemons that write into what a restore puts back, and starts them again after. */
export interface RestoreDaemons {
  /** Stops the running mail daemons: one entry per daemon stopped (ok) or that would not stop. */
  pause(): Promise<Reapplied[]>;
  /** Starts them again: one `restart` entry each, ok when it runs and answers again. */
  resume(names: string[]): Promise<Reapplied[]>;
}

export interface BackupEnv {
  database: DatabaseHandle;
  locks: Locks;
  dataDir: string;
  backupDir: string;
  /** The host whose daemon files and keys are archived when its root is outside the data folder. */
  host?: Host;
  /**
   * After a restore: apply every target's restored state through the apply pipeline (render,
   * prove, swap, reload), then reload `daemons` (those whose files the restore put back).
   */
  reapply?: (daemons: DaemonName[]) => Promise<Reapplied[]>;
  /** The daemons a restore stops and starts again (local mode's supervisor). */
  daemons?: RestoreDaemons;
  /**
   * Live state other areas keep across a restore (e.g. DNS serials, which must never go back):
   * each is read before the restore and answers what to do once the database is back.
   */
  keepers?: RestoreKeeper[];
}

/** Read before a restore; the answer runs after the database is put back (before the re-apply). */
export type RestoreKeeper = () => Promise<() => Promise<unknown>>;

export async function backupStatus(env: BackupEnv): Promise<BackupStatusAnswer> {
  const db = env.database.db;
  const backups = await latestBackups(db, env.backupDir, 500);
  const lastVerified = await lastVerifiedBackup(db);
  const s = await readSettingValues(db);
  return {
    backups,
    lastVerified,
    schedule: {
      frequency: s.backupFrequency!,
      hour: settingNumber(s, 'backupHour'),
      retentionDays: settingNumber(s, 'backupRetentionDays'),
    },
  };
}

const readRow = async (db: Db, id: number) => {
  const r = await readBackupRow(db, id);
  if (!r) throw notFound(`Backup ${id} was not found.`);
  return r;
};

async function extractSnar(
  backupDir: string,
  base: Selectable<SystemBackupTable>,
  into: string,
): Promise<string> {
  await runCommand('tar', [
    '--extract',
    '--file',
    path.join(backupDir, base.file!),
    '-C',
    into,
    'files.snar',
  ]);
  const target = path.join(into, 'base.snar');
  await moveFile(path.join(into, 'files.snar'), target);
  return target;
}

/** The daemons' runtime folders under a host root inside the data folder: never archived. */
function runtimeExcludes(env: BackupEnv): string[] {
  const rel = env.host ? hostRelative(env.host, env.dataDir) : null;
  return rel ? ARCHIVE_SKIPS.map((p) => `${rel}${p}`) : [];
}

/** The job that writes a backup archive (one backup at a time across every process). */
export function backupJob(env: BackupEnv) {
  return async (input: unknown, ctx: JobContext): Promise<JobOutcome> => {
    const { backupId } = input as { backupId: number };
    const db = env.database.db;
    return env.locks.withLock(
      'system.backup',
      async () => {
        const row = await readRow(db, backupId);
        const staging = path.join(env.backupDir, '.backup-staging', String(backupId));
        await removeTree(staging);
        await makeFolder(staging);
        try {
          let base: Selectable<SystemBackupTable> | undefined;
          let type = row.type as 'full' | 'incremental';
          if (type === 'incremental') {
            base = await latestCompletedSystemBackupBefore(db, backupId);
            // Nothing to build on: this one becomes a full backup.
            if (!base) type = 'full';
          }
          ctx.progress({ phase: 'Copying the database', processed: 0, total: 3 });
          const { part, tables } = await dumpDatabase(env.database, staging, ctx.signal);
          await ctx.checkpoint();
          ctx.progress({ phase: 'Archiving files', processed: 1, total: 3 });
          const baseSnar = base ? await extractSnar(env.backupDir, base, staging) : null;
          await archiveFiles(
            env.dataDir,
            staging,
            [
              ...excludedTopNames(env.dataDir, env.backupDir, env.database.sqlitePath),
              ...runtimeExcludes(env),
            ],
            baseSnar,
            ctx.signal,
          );
          if (baseSnar) await removeOneFile(baseSnar);
          // The daemon files and keys outside the data folder (system mode): always whole, they are small.
          const hostFiles =
            env.host && hostOutsideData(env.host, env.dataDir)
              ? await archiveHostFiles(env.host, staging, ctx.signal, await backupSourcePaths(env.host))
              : null;
          await ctx.checkpoint();
          ctx.progress({ phase: 'Writing the archive', processed: 2, total: 3 });
          const parts: Record<string, string> = {};
          for (const p of [part, 'files.tar.gz', 'files.snar', ...(hostFiles === null ? [] : [HOST_PART])])
            parts[p] = await sha256File(path.join(staging, p));
          const manifest: Manifest = {
            format: ARCHIVE_FORMAT,
            id: backupId,
            type,
            baseId: base ? Number(base.id) : null,
            createdAt: new Date(Number(row.created_at)).toISOString(),
            dialect: env.database.dialect,
            migrations: await appliedMigrations(db),
            tables,
            fileEntries: await countEntries(path.join(staging, 'files.tar.gz')),
            ...(hostFiles === null ? {} : { hostFiles }),
            parts,
          };
          const file = `backup-${backupId}-${type}.tar`;
          await packArchive(staging, manifest, path.join(env.backupDir, file));
          const stat = { size: await sizeOf(path.join(env.backupDir, file)) };
          const sha = await sha256File(path.join(env.backupDir, file));
          const retention = settingNumber(await readSettingValues(db), 'backupRetentionDays');
          await markSystemBackupCompleted(db, backupId, {
            type,
            name: row.name.replace(/^(Full|Incremental)/, type === 'full' ? 'Full' : 'Incremental'),
            baseId: base ? Number(base.id) : null,
            file,
            size: stat.size,
            sha256: sha,
            expiresAt: Number(row.created_at) + retention * DAY,
          });
          const rows = Object.values(tables).reduce((a, b) => a + b, 0);
          const expired = await applyRetention(env);
          ctx.progress({ phase: 'Done', processed: 3, total: 3 });
          return {
            result: {
              backupId,
              file,
              size: stat.size,
              tables: Object.keys(tables).length,
              rows,
              files: manifest.fileEntries,
              hostFiles: hostFiles ?? 0,
              expired,
            },
            summary: `${type === 'full' ? 'Full' : 'Incremental'} backup written: ${humanSize(stat.size)}, ${rows} rows, ${manifest.fileEntries} files${hostFiles === null ? '' : `, ${hostFiles} daemon configuration and key files`}`,
          };
        } catch (err) {
          await markBackupFailed(db, backupId, (err as Error).message);
          throw err;
        } finally {
          await removeTree(staging);
        }
      },
      { waitMs: 60 * 60_000 },
    );
  };
}

/**
 * Deletes the archives of backups past their expiry and marks them expired; a backup that a kept
 * incremental one builds on stays until that one goes.
 */
export async function applyRetention(env: BackupEnv, now = Date.now()): Promise<number> {
  const db = env.database.db;
  // A site's own backups follow that site's retention (site-backups.service.ts), never this one.
  const rows = await completedSystemBackups(db);
  const kept = rows.filter((r) => r.expires_at == null || Number(r.expires_at) > now);
  const needed = new Set<number>();
  const byId = new Map(rows.map((r) => [Number(r.id), r]));
  for (const r of kept) {
    let b = r.base_id;
    while (b != null) {
      needed.add(Number(b));
      b = byId.get(Number(b))?.base_id ?? null;
    }
  }
  let n = 0;
  for (const r of rows) {
    if (r.expires_at == null || Number(r.expires_at) > now || needed.has(Number(r.id))) continue;
    if (r.file) await removeTree(path.join(env.backupDir, r.file));
    await markBackupExpired(db, Number(r.id));
    n++;
  }
  return n;
}

/** The backups to unpack, oldest first, to reach `id` (a full one and the incrementals after it). */
export async function backupChain(db: Db, id: number): Promise<Selectable<SystemBackupTable>[]> {
  const chain: Selectable<SystemBackupTable>[] = [];
  let cur: number | null = id;
  while (cur != null) {
    const r = await readRow(db, cur);
    if (r.status !== 'completed' || !r.file)
      throw conflict(
        r.id === id
          ? `Backup ${id} is ${r.status}; only a completed backup can be used.`
          : `Backup ${id} builds on backup ${r.id}, which is ${r.status}; it cannot be used.`,
      );
    chain.unshift(r);
    cur = r.base_id == null ? null : Number(r.base_id);
  }
  return chain;
}

/**
 * Unpacks the chain into `scratch`, checks every checksum and the database copy's row counts, and
 * extracts the files (incrementals on top of their base). Answers the last manifest and a summary.
 */
export async function unpackChain(
  env: BackupEnv,
  id: number,
  scratch: string,
  ctx: JobContext,
): Promise<{ manifest: Manifest; dir: string; filesDir: string; summary: string }> {
  const chain = await backupChain(env.database.db, id);
  const filesDir = path.join(scratch, 'files');
  let last: { manifest: Manifest; dir: string } | null = null;
  let files = 0;
  for (const [i, b] of chain.entries()) {
    ctx.progress({ phase: `Checking ${b.name}`, processed: i, total: chain.length + 1 });
    const dir = path.join(scratch, `part-${b.id}`);
    const manifest = await unpackArchive(path.join(env.backupDir, b.file!), dir, b.sha256);
    if (!manifest.site) files += await extractFiles(dir, filesDir, manifest);
    if (manifest.hostFiles !== undefined) {
      const n = await countEntries(path.join(dir, HOST_PART));
      if (n !== manifest.hostFiles)
        throw new DamagedArchive(`its daemon files list ${n} entries, ${manifest.hostFiles} were recorded`);
    }
    last = { manifest, dir };
    await ctx.checkpoint();
  }
  if (last!.manifest.site) {
    // A site's backup: its files only, already counted against the manifest above.
    const entries = last!.manifest.hostFiles ?? 0;
    return {
      ...last!,
      filesDir,
      summary: `site ${last!.manifest.site.domain}: checksums match; ${entries} files and folders`,
    };
  }
  ctx.progress({ phase: 'Counting the database copy', processed: chain.length, total: chain.length + 1 });
  const { tables, rows } = await checkDatabasePart(last!.dir, last!.manifest);
  return {
    ...last!,
    filesDir,
    summary: `${chain.length} archive${chain.length === 1 ? '' : 's'}, checksums match; ${tables} tables, ${rows} rows; ${files} files`,
  };
}

/** The restore drill: into a scratch folder, compare counts and checksums, record "last verified". */
export function verifyJob(env: BackupEnv) {
  return async (input: unknown, ctx: JobContext): Promise<JobOutcome> => {
    const { backupId } = input as { backupId: number };
    const scratch = path.join(env.backupDir, '.backup-staging', `verify-${backupId}-${Date.now()}`);
    try {
      const { summary } = await unpackChain(env, backupId, scratch, ctx);
      const result = `OK: ${summary}`;
      await recordVerification(env.database.db, backupId, result);
      return { result: { backupId, ok: true, result }, summary: `Backup ${backupId} verified: ${summary}` };
    } catch (err) {
      await recordVerification(env.database.db, backupId, `FAILED: ${(err as Error).message}`.slice(0, 1000));
      throw err;
    } finally {
      await removeTree(scratch);
    }
  };
}

export async function deleteBackup(env: BackupEnv, id: number): Promise<number> {
  const db = env.database.db;
  const r = await readRow(db, id);
  if (r.status === 'active') throw conflict(`Backup ${id} is being written; wait for it to finish.`);
  const dependent = await completedBackupOnTopOf(db, id);
  if (dependent !== undefined)
    throw conflict(`Backup ${dependent} is incremental on top of backup ${id}; delete that one first.`);
  await auditedTransaction(
    db,
    (trx) => deleteBackupRow(trx, id),
    () => ({
      details: { name: r.name },
    }),
  );
  if (r.file) await removeTree(path.join(env.backupDir, r.file));
  return 1;
}

export async function backupFile(
  env: BackupEnv,
  id: number,
): Promise<{ file: string; name: string; size: number }> {
  const r = await readRow(env.database.db, id);
  if (r.status !== 'completed' || !r.file)
    throw conflict(`Backup ${id} is ${r.status}; there is no archive to download.`);
  const file = path.join(env.backupDir, r.file);
  const size = await sizeOrNull(file);
  if (size === null) throw notFound(`The archive of backup ${id} is missing from ${env.backupDir}.`);
  return { file, name: r.file, size };
}
