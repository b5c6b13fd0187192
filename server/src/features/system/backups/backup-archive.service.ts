import path from 'node:path';
import SQLite from 'better-sqlite3';
import type { DatabaseHandle } from '../../../db/database.ts';
import { appliedMigrations, listTables, vacuumInto } from '../../../db/catalogue.ts';
import {
  countTarEntries,
  pgDumpCounts as pgDumpRowCounts,
  sha256File,
  UnreadableArchive,
} from '../../../host/archive.ts';
import {
  copyFile,
  fileExists,
  makeFolder,
  moveFile,
  readTextFile,
  writeTextFile,
} from '../../../host/data-files.ts';
import { runCommand } from '../../../host/run-command.ts';

/**
 * The backup archive: one plain tar holding
 * - manifest.json: format, dialect, the migrations, row counts per table, SHA-256 of each part;
 * - database.sqlite (SQLite `VACUUM INTO`, an online consistent copy) or database.pgdump (`pg_dump -Fc`);
 * - files.tar.gz: the data folder's files (rendered config, keys, mail folders), GNU tar with a
 *   snapshot file, so an incremental archive holds only what changed since its base (and records
 *   what was deleted);
 * - files.snar: the snapshot after this archive, the base of the next incremental one.
 */
export const ARCHIVE_FORMAT = 'mailroom-backup/1';

export interface Manifest {
  format: typeof ARCHIVE_FORMAT;
  id: number;
  type: 'full' | 'incremental';
  baseId: number | null;
  createdAt: string;
  dialect: 'sqlite' | 'postgres';
  migrations: string[];
  tables: Record<string, number>;
  fileEntries: number;
  /** Entries of host.tar.gz: the daemon files and keys under the host root (absent: none archived). */
  hostFiles?: number;
  /** A site's own backup (host.tar.gz holds its document root only; no database, no data folder). */
  site?: { id: number; domain: string; documentRoot: string };
  /** Set when that site is a web application's host: its data folder is what was archived. */
  app?: { id: number; name: string };
  parts: Record<string, string>;
}

/** Names at the top of the data folder that are never archived as files. */
export function excludedTopNames(dataDir: string, backupDir: string, sqlitePath?: string): string[] {
  // Mailroom's own log folder: logs are never rewound by a restore.
  const names = ['.backup-staging', 'logs'];
  const rel = path.relative(dataDir, backupDir);
  if (rel && !rel.startsWith('..')) names.push(rel.split(path.sep)[0]!);
  if (sqlitePath && path.dirname(sqlitePath) === dataDir) {
    const b = path.basename(sqlitePath);
    names.push(b, `${b}-wal`, `${b}-shm`, `${b}-journal`);
  }
  return names;
}

export class DamagedArchive extends Error {
  constructor(reason: string) {
    super(`The backup archive is damaged: ${reason}. It cannot be restored; choose another backup.`);
  }
}

export { sha256File };

export { appliedMigrations, listTables };

/** Row counts of every table of a SQLite file (and its integrity check). */
export function sqliteCounts(file: string): Record<string, number> {
  const conn = new SQLite(file, { readonly: true, fileMustExist: true });
  try {
    const check = conn.pragma('quick_check', { simple: true });
    if (check !== 'ok')
      throw new DamagedArchive(`the database copy fails its integrity check (${String(check)})`);
    const names = conn
      .prepare(
        `select name from sqlite_master where type = 'table' and name not like 'sqlite_%' order by name`,
      )
      .pluck()
      .all() as string[];
    return Object.fromEntries(
      names.map((n) => [
        n,
        Number(
          conn
            .prepare(`select count(*) from "${n.replace(/"/g, '""')}"`)
            .pluck()
            .get(),
        ),
      ]),
    );
  } finally {
    conn.close();
  }
}

/** Row counts of a pg_dump archive: the rows of each table's COPY block, as pg_restore writes them. */
export async function pgDumpCounts(file: string): Promise<Record<string, number>> {
  try {
    return await pgDumpRowCounts(file);
  } catch (err) {
    if (err instanceof UnreadableArchive)
      throw new DamagedArchive(`pg_restore cannot read the database dump (${err.reason})`);
    throw err;
  }
}

/** Writes the database part into `staging`; answers its file name and the row counts. */
export async function dumpDatabase(
  database: DatabaseHandle,
  staging: string,
  signal: AbortSignal,
): Promise<{ part: string; tables: Record<string, number> }> {
  if (database.dialect === 'sqlite') {
    const part = 'database.sqlite';
    const target = path.join(staging, part);
    await vacuumInto(database.db, target);
    return { part, tables: sqliteCounts(target) };
  }
  const part = 'database.pgdump';
  const target = path.join(staging, part);
  await runCommand(
    'pg_dump',
    ['-Fc', '--no-owner', '--no-privileges', '-f', target, '--dbname', database.postgresUrl!],
    {
      signal,
    },
  );
  return { part, tables: await pgDumpCounts(target) };
}

/** Entries (not folders) in a files.tar.gz, counted as tar lists them (streamed: mail folders are large). */
export async function countEntries(tarGz: string): Promise<number> {
  try {
    return await countTarEntries(tarGz);
  } catch (err) {
    if (err instanceof UnreadableArchive)
      throw new DamagedArchive(`its file list cannot be read (${err.reason})`);
    throw err;
  }
}

/** Archives the data folder's files, incrementally from `baseSnar` when given. */
export async function archiveFiles(
  dataDir: string,
  staging: string,
  excluded: string[],
  baseSnar: string | null,
  signal: AbortSignal,
): Promise<void> {
  const snar = path.join(staging, 'files.snar');
  if (baseSnar) await copyFile(baseSnar, snar);
  // Exit 1: a file changed while it was read (live mail); the archive is still good.
  await runCommand(
    'tar',
    [
      '--create',
      '--gzip',
      '--file',
      path.join(staging, 'files.tar.gz'),
      `--listed-incremental=${snar}`,
      '--no-check-device',
      '--warning=no-file-ignored',
      ...excluded.map((e) => `--exclude=./${e}`),
      '-C',
      dataDir,
      '.',
    ],
    { signal, okCodes: [0, 1] },
  );
}

/** Packs the parts and the manifest into `target` (written beside it, then renamed). */
export async function packArchive(staging: string, manifest: Manifest, target: string): Promise<void> {
  await writeTextFile(path.join(staging, 'manifest.json'), JSON.stringify(manifest, null, 2));
  const tmp = `${target}.partial`;
  await runCommand('tar', [
    '--create',
    '--file',
    tmp,
    '-C',
    staging,
    'manifest.json',
    ...Object.keys(manifest.parts),
  ]);
  await moveFile(tmp, target);
}

/** Unpacks an archive into `into` and checks every part against the manifest. */
export async function unpackArchive(
  file: string,
  into: string,
  expectedSha?: string | null,
): Promise<Manifest> {
  if (!(await fileExists(file))) throw new DamagedArchive(`its file ${path.basename(file)} is missing`);
  if (expectedSha) {
    const sha = await sha256File(file);
    if (sha !== expectedSha)
      throw new DamagedArchive('its checksum does not match the one recorded when it was made');
  }
  await makeFolder(into);
  try {
    await runCommand('tar', ['--extract', '--file', file, '-C', into, '--no-same-owner']);
  } catch (err) {
    throw new DamagedArchive(`it is not a readable tar file (${(err as Error).message.split('\n').pop()})`);
  }
  let manifest: Manifest;
  try {
    manifest = JSON.parse(await readTextFile(path.join(into, 'manifest.json'))) as Manifest;
  } catch {
    throw new DamagedArchive('its manifest is missing or unreadable');
  }
  if (manifest.format !== ARCHIVE_FORMAT)
    throw new DamagedArchive(`its format ${String(manifest.format)} is unknown`);
  for (const [part, sha] of Object.entries(manifest.parts)) {
    let actual: string;
    try {
      actual = await sha256File(path.join(into, part));
    } catch {
      throw new DamagedArchive(`its part ${part} is missing`);
    }
    if (actual !== sha) throw new DamagedArchive(`its part ${part} does not match its checksum`);
  }
  return manifest;
}

/** Counts the database copy's rows the way a restore would read them, and compares with the manifest. */
export async function checkDatabasePart(
  into: string,
  manifest: Manifest,
): Promise<{ tables: number; rows: number }> {
  const counts =
    manifest.dialect === 'sqlite'
      ? sqliteCounts(path.join(into, 'database.sqlite'))
      : await pgDumpCounts(path.join(into, 'database.pgdump'));
  for (const [t, n] of Object.entries(manifest.tables))
    if ((counts[t] ?? 0) !== n)
      throw new DamagedArchive(`table ${t} has ${counts[t] ?? 0} rows in the copy, ${n} were recorded`);
  return {
    tables: Object.keys(manifest.tables).length,
    rows: Object.values(manifest.tables).reduce((a, b) => a + b, 0),
  };
}

/** Extracts files.tar.gz of an unpacked archive into `filesDir` (incremental: deletions applied). */
export async function extractFiles(into: string, filesDir: string, manifest: Manifest): Promise<number> {
  await makeFolder(filesDir);
  const archive = path.join(into, 'files.tar.gz');
  try {
    await runCommand('tar', [
      '--extract',
      '--gzip',
      '--file',
      archive,
      '--listed-incremental=/dev/null',
      '-C',
      filesDir,
      // As root the files come back with their archived owners (Maildirs are the mail user's).
      ...(process.getuid?.() === 0 ? ['--same-owner', '--same-permissions'] : ['--no-same-owner']),
    ]);
  } catch (err) {
    throw new DamagedArchive(`its files cannot be extracted (${(err as Error).message.split('\n').pop()})`);
  }
  const entries = await countEntries(archive);
  if (entries !== manifest.fileEntries)
    throw new DamagedArchive(`it lists ${entries} files, ${manifest.fileEntries} were recorded`);
  return entries;
}
