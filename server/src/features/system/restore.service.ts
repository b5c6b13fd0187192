import path from 'node:path';
import { type Kysely, sql } from 'kysely';
import type { DatabaseHandle } from '../../db/database.ts';
import type { Database } from '../../db/schema.ts';
import { pgRestoreScript } from '../../host/archive.ts';
import { appendTextFile, writeTextFile } from '../../host/data-files.ts';
import { removeTree } from '../../host/disk-files.ts';
import { runCommand } from '../../host/run-command.ts';
import { syncTree } from '../../host/tree-sync.ts';
import { conflict } from '../../http/errors.ts';
import type { JobContext, JobOutcome } from './job-types.ts';
import { appliedMigrations, excludedTopNames, listTables, type Manifest } from './backups-archive.ts';
import {
  daemonsOfPaths,
  HOST_PART,
  hostRelative,
  isRuntimePath,
  restoreHostFiles,
  RUNTIME_HOST_PATHS,
} from './backups-host-files.ts';
import { type BackupEnv, type Reapplied, unpackChain } from './backups.service.ts';
import { restoreSiteBackup } from './site-backups.service.ts';
import { readBackupRow } from './backup.repository.ts';

/**
 * Tables a restore leaves as they are: the server's own running state and history (jobs, locks,
 * notifications, the audit log, sign-in throttling, the backup catalogue itself, alerts, the
 * migrations) — a restore puts the administrators' data and configuration back, not the past
 * of the server.
 */
const q = (name: string) => `"${name.replace(/"/g, '""')}"`;

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
]);

/**
 * Security state a restore never brings back from the archive (issue 22): the archived rows are
 * dropped and the live ones are kept as `securityStatements` says: every session is ended except
 * the one that asked for the restore; sign-in challenges and "trusted device" tokens are ended (the
 * next sign-in asks for the second factor again); lockouts in force stay in force. (Sign-in attempts
 * and rate-limit counters are in KEPT_TABLES: never restored, live counts kept.)
 */
export const SECURITY_TABLES = new Set(['sessions', 'mfa_challenges', 'mfa_trusted_devices', 'mfa_lockouts']);

/** A SQL literal of a column value as read (text, number or null: the security tables hold no other). */
const lit = (v: unknown): string => {
  if (v === null || v === undefined) return 'null';
  if (typeof v === 'number' || typeof v === 'bigint') return String(v);
  if (typeof v === 'boolean') return v ? '1' : '0';
  if (typeof v === 'string') return `'${v.replace(/'/g, "''")}'`;
  throw new Error(`A security table holds a value that cannot be written back (${typeof v}).`);
};

/**
 * Reads the live security state before a restore and answers the statements that put it back after
 * the restored tables are filled (run in the restore's own transaction): the requester's session
 * and the lockouts in force, each re-keyed to the restored account of the same e-mail address (an
 * account the backup does not have loses them); backup codes used since the backup stay used, and
 * TOTP steps and passkey counters never go back (a code or an assertion is accepted once).
 */
export async function securityStatements(
  db: Kysely<Database>,
  keepSessionId: number | null,
): Promise<string[]> {
  const out: string[] = [];
  const rekeyed = (table: string, row: Record<string, unknown>, keepId: boolean) => {
    const { admin_email: email, id, admin_id: _a, ...rest } = row;
    const cols = [...(keepId ? ['id'] : []), 'admin_id', ...Object.keys(rest)];
    const vals = [...(keepId ? [lit(id)] : []), 'a.id', ...Object.values(rest).map(lit)];
    return `insert into ${q(table)} (${cols.map(q).join(', ')}) select ${vals.join(', ')} from admins a where a.email = ${lit(email)}`;
  };
  if (keepSessionId !== null) {
    const rows = await sql<
      Record<string, unknown>
    >`select s.*, a.email as admin_email from sessions s join admins a on a.id = s.admin_id where s.id = ${keepSessionId}`.execute(
      db,
    );
    for (const r of rows.rows) out.push(rekeyed('sessions', r, true));
  }
  const locks = await sql<
    Record<string, unknown>
  >`select l.*, a.email as admin_email from mfa_lockouts l join admins a on a.id = l.admin_id`.execute(db);
  for (const r of locks.rows) out.push(rekeyed('mfa_lockouts', r, false));
  const used = await db
    .selectFrom('mfa_backup_codes')
    .select(['code_hash', 'used_at'])
    .where('used', '=', 1)
    .execute();
  for (const u of used)
    out.push(
      `update mfa_backup_codes set used = 1, used_at = ${lit(u.used_at)} where code_hash = ${lit(u.code_hash)} and used = 0`,
    );
  const devices = await db
    .selectFrom('mfa_devices')
    .select(['secret_enc', 'last_step', 'credential_id', 'sign_count'])
    .execute();
  for (const d of devices) {
    if (d.secret_enc !== null && d.last_step !== null)
      out.push(
        `update mfa_devices set last_step = ${lit(Number(d.last_step))} where secret_enc = ${lit(d.secret_enc)} and (last_step is null or last_step < ${lit(Number(d.last_step))})`,
      );
    if (d.credential_id !== null && d.sign_count !== null)
      out.push(
        `update mfa_devices set sign_count = ${lit(Number(d.sign_count))} where credential_id = ${lit(d.credential_id)} and (sign_count is null or sign_count < ${lit(Number(d.sign_count))})`,
      );
  }
  return out;
}

async function restoreSqlite(
  database: DatabaseHandle,
  copy: string,
  tables: string[],
  emptied: string[],
  keepSessionId: number | null,
): Promise<void> {
  const db = database.db;
  await sql`attach database ${sql.lit(copy)} as restore_src`.execute(db);
  try {
    await db.transaction().execute(async (trx) => {
      await sql`pragma defer_foreign_keys = on`.execute(trx);
      const after = await securityStatements(trx, keepSessionId);
      for (const t of [...tables, ...emptied]) await sql.raw(`delete from main.${q(t)}`).execute(trx);
      for (const t of tables) {
        const cols = (await sql<{ name: string }>`select name from pragma_table_info(${t})`.execute(trx)).rows
          .map((c) => q(c.name))
          .join(', ');
        await sql
          .raw(`insert into main.${q(t)} (${cols}) select ${cols} from restore_src.${q(t)}`)
          .execute(trx);
      }
      for (const stmt of after) await sql.raw(stmt).execute(trx);
    });
  } finally {
    await sql`detach database restore_src`.execute(db);
  }
}

/** Which table references which (the dump's own foreign keys): child -> its parents. */
async function foreignKeys(dump: string): Promise<Map<string, string[]>> {
  const { stdout } = await runCommand('pg_restore', ['--section=post-data', '-f', '-', dump]);
  const out = new Map<string, string[]>();
  const re =
    /ALTER TABLE ONLY (?:public\.)?("?[\w]+"?)\s+ADD CONSTRAINT \S+ FOREIGN KEY \([^)]*\) REFERENCES (?:public\.)?("?[\w]+"?)/g;
  for (const m of stdout.matchAll(re)) {
    const [child, parent] = [m[1]!.replace(/"/g, ''), m[2]!.replace(/"/g, '')];
    if (child !== parent) out.set(child, [...(out.get(child) ?? []), parent]);
  }
  return out;
}

/**
 * pg_restore -L restores in the list's order, and a dump lists table data by name: a table's rows
 * must come after the rows they reference (web_vhost_names after web_vhosts), or the foreign key
 * refuses them inside the one transaction. The data lines are reordered parents first.
 */
function parentsFirst(lines: string[], parents: Map<string, string[]>): string[] {
  const tableOf = (l: string) => /TABLE DATA \S+ (\S+) /.exec(l)?.[1] ?? null;
  const data = lines.filter((l) => tableOf(l) !== null);
  if (!data.length) return lines;
  const byTable = new Map(data.map((l) => [tableOf(l)!, l]));
  const ordered: string[] = [];
  const seen = new Set<string>();
  const visit = (t: string) => {
    if (seen.has(t)) return;
    seen.add(t);
    for (const p of parents.get(t) ?? []) visit(p);
    const l = byTable.get(t);
    if (l) ordered.push(l);
  };
  for (const l of data) visit(tableOf(l)!);
  let i = 0;
  return lines.map((l) => (tableOf(l) !== null ? ordered[i++]! : l));
}

async function restorePostgres(
  database: DatabaseHandle,
  dump: string,
  tables: string[],
  emptied: string[],
  keepSessionId: number | null,
  scratch: string,
): Promise<void> {
  // The dump's table of contents without the kept tables' data and sequence positions.
  const { stdout } = await runCommand('pg_restore', ['-l', dump]);
  const keep = (line: string) => {
    const m = /(TABLE DATA|SEQUENCE SET) \S+ (\S+) /.exec(line);
    if (!m) return !/\b(TABLE DATA|SEQUENCE SET)\b/.test(line);
    const name = m[2]!;
    const table = m[1] === 'SEQUENCE SET' ? name.replace(/_id_seq$/, '') : name;
    return tables.includes(table);
  };
  const list = path.join(scratch, 'restore.list');
  await writeTextFile(
    list,
    parentsFirst(
      stdout.split('\n').filter((l) => l.startsWith(';') || keep(l)),
      await foreignKeys(dump),
    ).join('\n'),
  );
  // The data script can be large (a million rows): streamed to a file, never held in memory.
  const script = path.join(scratch, 'restore.sql');
  await writeTextFile(script, `truncate ${[...tables, ...emptied].map(q).join(', ')};\n`);
  await pgRestoreScript(dump, list, script);
  // The live security state, read as late as possible (the requester's session, lockouts, used codes).
  const after = await securityStatements(database.db, keepSessionId);
  await appendTextFile(
    script,
    `\nSELECT pg_catalog.set_config('search_path', 'public', false);\n${after.map((x) => `${x};\n`).join('')}`,
  );
  // One transaction: the tables are emptied and refilled together, or not at all.
  await runCommand('psql', [
    '--no-psqlrc',
    '--quiet',
    '--single-transaction',
    '-v',
    'ON_ERROR_STOP=1',
    '-f',
    script,
    '--dbname',
    database.postgresUrl!,
  ]);
}

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
