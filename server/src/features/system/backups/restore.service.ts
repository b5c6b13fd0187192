import path from 'node:path';
import type { DatabaseHandle } from '../../../db/database.ts';
import { removeTree } from '../../../host/disk-files.ts';
import { syncTree } from '../../../host/tree-sync.ts';
import { conflict } from '../../../http/errors.ts';
import type { JobContext, JobOutcome } from '../system-job.types.ts';
import { restoreSqlite } from './database-restore.repository.ts';
import { restorePostgres } from './restore-postgres.service.ts';
import { appliedMigrations, excludedTopNames, listTables, type Manifest } from './backup-archive.service.ts';
import {
  daemonsOfPaths,
  HOST_PART,
  hostRelative,
  isRuntimePath,
  restoreHostFiles,
  RUNTIME_HOST_PATHS,
} from './backup-host-files.service.ts';
import { type BackupEnv, type Reapplied, unpackChain } from './backup.service.ts';
import { restoreSiteBackup } from './site-backup.service.ts';
import { readBackupRow } from './backup.repository.ts';

/**
 * Tables a restore leaves as they are: the server's own running state and history (jobs, locks,
 * notifications, the audit log, sign-in throttling, the backup catalogue itself, alerts, the
 * migrations) — a restore puts the administrators' data and configuration back, not the past
 * of the server.
 */
export const KEPT_TABLES = new Set([
  'jobs',
  'locks',
  'notifications',
  'audit_log',
  'login_attempts',
  'rate_limits',
  'system_backups',
  'system_alerts',
  'list_versions',
  'kysely_migration',
  'kysely_migration_lock',
  'mfa_activity',
  // The machine's upgradable packages as last read from apt: the machine's, not the backup's.
  'updates_reading',
  // Traffic and health figures the server gathers as it runs (API monitoring, Apache's access log
  // with its read position, TLS handshakes, SSL checks, application logs): its past, which a restore
  // must not rewind (an old log position would count the log's lines twice). Their writers also run
  // while a restore does: none of their tables is emptied under them.
  'api_cache_nodes',
  'api_key_stat_minutes',
  'api_rate_buckets',
  'api_recent_requests',
  'api_stat_minutes',
  'api_stat_totals',
  'web_log_position',
  'web_traffic_minutes',
  'web_tls_minutes',
  'web_ssl_health',
  'web_app_log_lines',
  'web_app_hook_deliveries',
]);

/**
 * Security state a restore never brings back from the archive (issue 22): the archived rows are
 * dropped and the live ones are kept as `securityStatements` says: every session is ended except
 * the one that asked for the restore; sign-in challenges and "trusted device" tokens are ended (the
 * next sign-in asks for the second factor again); lockouts in force stay in force. (Sign-in attempts
 * and rate-limit counters are in KEPT_TABLES: never restored, live counts kept.)
 */
export const SECURITY_TABLES = new Set(['sessions', 'mfa_challenges', 'mfa_trusted_devices', 'mfa_lockouts']);

export interface SyncResult {
  /** Files and links written, and entries removed. */
  changed: number;
  /** System paths (under the host root) written or removed: whose daemons must read them again. */
  hostPaths: string[];
}

/**
 * Puts the data folder's files back as the archive holds them (only the archived names), with the
 * archived owners and modes (as root: Maildirs stay the mail user's). Daemon runtime state under the
 * host root (sockets, pids, locks, the queue, logs: `isRuntimePath`) is neither written nor removed,
 * whatever the archive holds. Daemon configuration (under the host root's /etc) gets the time of
 * the restore, so a daemon that reloads only files newer than it loaded (named's zones) reads it;
 * mail and the rest keep the archived time (Dovecot reads a Maildir message's date from it).
 */
export async function syncFiles(
  from: string,
  to: string,
  opts: { excluded: Set<string>; hostRel: string | null; asRoot: boolean },
): Promise<SyncResult> {
  const h = opts.hostRel;
  const systemPath = (rel: string): string | null => {
    if (!h) return null;
    if (rel === h) return '/';
    return rel.startsWith(h + '/') ? rel.slice(h.length) : null;
  };
  const r = await syncTree(from, to, {
    excluded: opts.excluded,
    asRoot: opts.asRoot,
    leaveAlone: (rel) => {
      const sp = systemPath(rel);
      return sp !== null && isRuntimePath(sp);
    },
    holdsLeftAlone: (rel) => {
      const sp = systemPath(rel);
      if (sp === null) return h !== null && h.startsWith(rel + '/');
      return RUNTIME_HOST_PATHS.some((p) => sp === '/' || p.startsWith(sp + '/'));
    },
    freshTime: (rel) => systemPath(rel)?.startsWith('/etc/') ?? false,
  });
  return {
    changed: r.changed,
    hostPaths: r.paths.flatMap((p) => {
      const sp = systemPath(p);
      return sp ? [sp] : [];
    }),
  };
}

/** Test seams of a restore, per database (as setApplyHooks): `paused` runs while the daemons are stopped. */
const restoreHooks = new WeakMap<object, { paused?: () => Promise<void> }>();
export function setRestoreHooks(database: DatabaseHandle, hooks: { paused?: () => Promise<void> }): void {
  restoreHooks.set(database, hooks);
}

/** The restore job: check the chain (as the drill does), then put the data and files back. */
export function restoreJob(env: BackupEnv) {
  return async (input: unknown, ctx: JobContext): Promise<JobOutcome> => {
    const { backupId, keepSessionId } = input as { backupId: number; keepSessionId?: number | null };
    return env.locks.withLock(
      'system.backup',
      async () => {
        const scratch = path.join(env.backupDir, '.backup-staging', `restore-${backupId}-${Date.now()}`);
        try {
          // A site's own backup puts that site's files back, nothing else.
          const row = await readBackupRow(env.database.db, backupId);
          if (row && row.site_id != null && row.status === 'completed' && row.file)
            return await restoreSiteBackup(env, row, scratch, ctx);
          const { manifest, dir, filesDir, summary } = await unpackChain(env, backupId, scratch, ctx);
          await checkCompatible(env.database, manifest);
          const current = await listTables(env.database.db, env.database.dialect);
          const tables = current.filter(
            (t) => !KEPT_TABLES.has(t) && !SECURITY_TABLES.has(t) && t in manifest.tables,
          );
          const emptied = current.filter((t) => SECURITY_TABLES.has(t));
          // The daemons that write into what is restored (mail into the Maildirs, quota into the
          // database) are stopped while it is put back, and started again after.
          const afterDatabase = await Promise.all((env.keepers ?? []).map((keep) => keep()));
          ctx.progress({ phase: 'Stopping the mail daemons', processed: 0, total: 4 });
          const daemons = env.daemons ?? null;
          const paused = daemons ? await daemons.pause() : [];
          const steps: Reapplied[] = paused.filter((p) => !p.ok);
          let sync: SyncResult = { changed: 0, hostPaths: [] };
          let hostWritten: string[] = [];
          try {
            await restoreHooks.get(env.database)?.paused?.();
            ctx.progress({ phase: 'Restoring the database', processed: 1, total: 4 });
            const keep = keepSessionId ?? null;
            if (env.database.dialect === 'sqlite')
              await restoreSqlite(env.database, path.join(dir, 'database.sqlite'), tables, emptied, keep);
            else
              await restorePostgres(
                env.database,
                path.join(dir, 'database.pgdump'),
                tables,
                emptied,
                keep,
                scratch,
              );
            for (const after of afterDatabase) await after();
            ctx.progress({ phase: 'Restoring files', processed: 2, total: 4 });
            const excluded = new Set(excludedTopNames(env.dataDir, env.backupDir, env.database.sqlitePath));
            sync = await syncFiles(filesDir, env.dataDir, {
              excluded,
              hostRel: env.host ? hostRelative(env.host, env.dataDir) : null,
              asRoot: process.getuid?.() === 0,
            });
            hostWritten =
              manifest.parts[HOST_PART] && env.host ? await restoreHostFiles(env.host, dir, scratch) : [];
          } finally {
            // Started again whatever happened: a failed restore must not leave mail stopped.
            if (daemons)
              steps.push(...(await daemons.resume(paused.filter((p) => p.ok).map((p) => p.target))));
          }
          // The running daemons must match the restored database: every target applied again, and
          // every daemon whose files were put back (and that was not just started on them) reloaded.
          ctx.progress({ phase: 'Applying and reloading the daemons', processed: 3, total: 4 });
          const restarted = steps.filter((x) => x.ok && x.kind === 'restart').map((x) => x.target);
          const touched = daemonsOfPaths([...sync.hostPaths, ...hostWritten]).filter(
            (d) => !restarted.includes(d),
          );
          const reapplied: Reapplied[] = env.reapply ? await env.reapply(touched) : [];
          const all = [...steps, ...reapplied];
          const notLive = all.filter((r) => !r.ok);
          const said = (kind: Reapplied['kind']) =>
            all.filter((r) => r.ok && r.kind === kind).map((r) => r.target);
          const parts = [
            `Restored backup ${backupId} (${summary})`,
            `${tables.length} tables replaced, ${sync.changed} files written or removed` +
              (hostWritten.length ? `, ${hostWritten.length} daemon files put back` : ''),
            `sessions ended except ${keepSessionId != null ? 'the one that asked for the restore' : 'none'}`,
          ];
          if (said('restart').length) parts.push(`stopped and started again: ${said('restart').join(', ')}`);
          const applied = all.filter((r) => r.ok && r.kind === 'apply');
          if (applied.length)
            parts.push(`applied again: ${applied.map((r) => `${r.target} (${r.message})`).join(', ')}`);
          const reloaded = all.filter((r) => r.ok && r.kind === 'reload' && !r.skipped);
          if (reloaded.length) parts.push(`reloaded: ${reloaded.map((r) => r.target).join(', ')}`);
          const skipped = all.filter((r) => r.ok && r.kind === 'reload' && r.skipped);
          if (skipped.length)
            parts.push(`not reloaded: ${skipped.map((r) => `${r.target} (${r.message})`).join(', ')}`);
          if (notLive.length)
            parts.push(`NOT live: ${notLive.map((r) => `${r.target}: ${r.message}`).join('; ')}`);
          ctx.progress({ phase: 'Done', processed: 4, total: 4 });
          return {
            result: {
              backupId,
              tables: tables.length,
              files: sync.changed,
              hostFiles: hostWritten,
              reapplied: all,
            },
            summary: parts.join('; '),
          };
        } finally {
          await removeTree(scratch);
        }
      },
      { waitMs: 60 * 60_000 },
    );
  };
}

async function checkCompatible(database: DatabaseHandle, manifest: Manifest): Promise<void> {
  if (manifest.dialect !== database.dialect)
    throw conflict(
      `This backup holds a ${manifest.dialect === 'sqlite' ? 'SQLite' : 'PostgreSQL'} database; this server runs on ${database.dialect === 'sqlite' ? 'SQLite' : 'PostgreSQL'}. Restore it on a server of the same kind.`,
    );
  const now = await appliedMigrations(database.db);
  if (now.join(',') !== manifest.migrations.join(','))
    throw conflict(
      `This backup was made by a Mailroom with other database migrations (${manifest.migrations.at(-1)}; this one is at ${now.at(-1)}). Restore it with the matching version.`,
    );
}
