import { spawn } from 'node:child_process';
import { createWriteStream, promises as fs } from 'node:fs';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import path from 'node:path';
import { sql } from 'kysely';
import type { DatabaseHandle } from '../../db/database.ts';
import { runCommand } from '../../host/run-command.ts';
import { conflict } from '../../http/errors.ts';
import type { JobContext, JobOutcome } from './job-types.ts';
import { appliedMigrations, excludedTopNames, listTables, type Manifest } from './backups-archive.ts';
import { HOST_PART, restoreHostFiles } from './backups-host-files.ts';
import { type BackupEnv, type Reapplied, unpackChain } from './backups.service.ts';

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
]);

const q = (name: string) => `"${name.replace(/"/g, '""')}"`;

async function restoreSqlite(database: DatabaseHandle, copy: string, tables: string[]): Promise<void> {
  const db = database.db;
  await sql`attach database ${sql.lit(copy)} as restore_src`.execute(db);
  try {
    await db.transaction().execute(async (trx) => {
      await sql`pragma defer_foreign_keys = on`.execute(trx);
      for (const t of tables) await sql.raw(`delete from main.${q(t)}`).execute(trx);
      for (const t of tables) {
        const cols = (await sql<{ name: string }>`select name from pragma_table_info(${t})`.execute(trx)).rows
          .map((c) => q(c.name))
          .join(', ');
        await sql
          .raw(`insert into main.${q(t)} (${cols}) select ${cols} from restore_src.${q(t)}`)
          .execute(trx);
      }
    });
  } finally {
    await sql`detach database restore_src`.execute(db);
  }
}

/**
 * Appends pg_restore's data script to `target`. pg_restore empties the search path; the
 * list-version triggers name their table unqualified, so the script keeps `public` on it.
 */
async function pgRestoreScript(dump: string, list: string, target: string): Promise<void> {
  const child = spawn('pg_restore', ['--data-only', '-L', list, '-f', '-', dump], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c.slice(0, 4000)));
  let head = true;
  const fix = new Transform({
    transform(chunk: Buffer, _enc, done) {
      if (!head) return done(null, chunk);
      head = false;
      done(
        null,
        Buffer.from(
          chunk
            .toString('utf8')
            .replace(
              "SELECT pg_catalog.set_config('search_path', '', false);",
              "SELECT pg_catalog.set_config('search_path', 'public', false);",
            ),
        ),
      );
    },
  });
  const closed = new Promise<number>((r) => child.on('close', (c) => r(c ?? 1)));
  await pipeline(child.stdout, fix, createWriteStream(target, { flags: 'a' }));
  const code = await closed;
  if (code !== 0)
    throw new Error(`pg_restore failed (exit ${code}): ${stderr.trim().split('\n').pop() ?? ''}`);
}

async function restorePostgres(
  database: DatabaseHandle,
  dump: string,
  tables: string[],
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
  await fs.writeFile(
    list,
    stdout
      .split('\n')
      .filter((l) => l.startsWith(';') || keep(l))
      .join('\n'),
  );
  // The data script can be large (a million rows): streamed to a file, never held in memory.
  const script = path.join(scratch, 'restore.sql');
  await fs.writeFile(script, `truncate ${tables.map(q).join(', ')};\n`);
  await pgRestoreScript(dump, list, script);
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

/** Puts the data folder's files back as the archive holds them (only the archived names). */
async function syncFiles(from: string, to: string, excluded: Set<string>, top = true): Promise<number> {
  let changed = 0;
  const wanted = new Map((await fs.readdir(from, { withFileTypes: true })).map((e) => [e.name, e]));
  const present = await fs.readdir(to, { withFileTypes: true }).catch(() => []);
  for (const e of present) {
    if (top && excluded.has(e.name)) continue;
    const w = wanted.get(e.name);
    if (!w || w.isDirectory() !== e.isDirectory()) {
      await fs.rm(path.join(to, e.name), { recursive: true, force: true });
      changed++;
    }
  }
  for (const [name, e] of wanted) {
    if (top && excluded.has(name)) continue;
    const src = path.join(from, name);
    const dst = path.join(to, name);
    if (e.isDirectory()) {
      await fs.mkdir(dst, { recursive: true });
      changed += await syncFiles(src, dst, excluded, false);
    } else if (e.isSymbolicLink()) {
      await fs.rm(dst, { force: true });
      await fs.symlink(await fs.readlink(src), dst);
      changed++;
    } else if (e.isFile()) {
      const tmp = `${dst}.restore-tmp`;
      await fs.copyFile(src, tmp);
      const st = await fs.stat(src);
      await fs.chmod(tmp, st.mode);
      await fs.rename(tmp, dst);
      changed++;
    }
  }
  return changed;
}

/** The restore job: check the chain (as the drill does), then put the data and files back. */
export function restoreJob(env: BackupEnv) {
  return async (input: unknown, ctx: JobContext): Promise<JobOutcome> => {
    const { backupId } = input as { backupId: number };
    return env.locks.withLock(
      'system.backup',
      async () => {
        const scratch = path.join(env.backupDir, '.backup-staging', `restore-${backupId}-${Date.now()}`);
        try {
          const { manifest, dir, filesDir, summary } = await unpackChain(env, backupId, scratch, ctx);
          await checkCompatible(env.database, manifest);
          ctx.progress({ phase: 'Restoring the database', processed: 0, total: 3 });
          const current = await listTables(env.database.db, env.database.dialect);
          const tables = current.filter((t) => !KEPT_TABLES.has(t) && t in manifest.tables);
          if (env.database.dialect === 'sqlite')
            await restoreSqlite(env.database, path.join(dir, 'database.sqlite'), tables);
          else await restorePostgres(env.database, path.join(dir, 'database.pgdump'), tables, scratch);
          ctx.progress({ phase: 'Restoring files', processed: 1, total: 3 });
          const excluded = new Set(excludedTopNames(env.dataDir, env.backupDir, env.database.sqlitePath));
          const files = await syncFiles(filesDir, env.dataDir, excluded);
          const hostWritten =
            manifest.parts[HOST_PART] && env.host ? await restoreHostFiles(env.host, dir, scratch) : [];
          // The running daemons must match the restored database: every target applied again.
          ctx.progress({ phase: 'Applying and reloading the daemons', processed: 2, total: 3 });
          const reapplied: Reapplied[] = env.reapply ? await env.reapply(hostWritten.length > 0) : [];
          const notLive = reapplied.filter((r) => !r.ok);
          ctx.progress({ phase: 'Done', processed: 3, total: 3 });
          return {
            result: { backupId, tables: tables.length, files, hostFiles: hostWritten, reapplied },
            summary:
              `Restored backup ${backupId} (${summary}); ${tables.length} tables replaced, ${files} files written or removed` +
              (hostWritten.length ? `, ${hostWritten.length} daemon files put back` : '') +
              (reapplied.length
                ? notLive.length
                  ? `; NOT live: ${notLive.map((r) => `${r.target}: ${r.message}`).join('; ')}`
                  : `; applied and reloaded: ${reapplied.map((r) => r.target).join(', ')}`
                : ''),
          };
        } finally {
          await fs.rm(scratch, { recursive: true, force: true });
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
