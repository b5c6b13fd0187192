import path from 'node:path';
import type { DatabaseHandle } from '../../../db/database.ts';
import { pgRestoreScript } from '../../../host/archive.ts';
import { appendTextFile, writeTextFile } from '../../../host/data-files.ts';
import { runCommand } from '../../../host/run-command.ts';
import { q, securityStatements } from './database-restore.repository.ts';

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

/** Restores the dump's `tables` (and empties `emptied`) with pg_restore and psql, in one transaction. */
export async function restorePostgres(
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
  // One transaction: the tables are emptied and refilled together, or not at all. The server keeps
  // serving meanwhile, and its statements lock tables of their own (the session lookup reads
  // sessions, then admins). A TRUNCATE that took some tables and waited for the next could close a
  // lock cycle with one of them: PostgreSQL then ends one side ("deadlock detected"), a request
  // (500) or the restore. So the transaction first takes every table at once without waiting
  // (NOWAIT): it never holds one while it waits for another, and while another statement holds
  // one it gives all back and tries again a moment later. Past LOCK_NOWAIT_MS of trying it waits
  // in turn, and runs again if it lost a deadlock (nothing of an ended transaction stays).
  const lock = `LOCK TABLE ${[...tables, ...emptied].map(q).join(', ')} IN ACCESS EXCLUSIVE MODE`;
  const waitUntil = Date.now() + LOCK_NOWAIT_MS;
  for (let deadlocks = 0; ;) {
    const nowait = Date.now() < waitUntil;
    try {
      await runPsqlScript(database.postgresUrl!, nowait ? `${lock} NOWAIT` : lock, script);
      return;
    } catch (err) {
      const message = (err as Error).message;
      if (nowait && /could not obtain lock/.test(message)) {
        await sleep(20 + Math.random() * 60);
        continue;
      }
      if (/deadlock detected/.test(message) && ++deadlocks < DEADLOCK_ATTEMPTS) {
        await sleep(200 * deadlocks);
        continue;
      }
      throw err;
    }
  }
}

const LOCK_NOWAIT_MS = 30_000;
const DEADLOCK_ATTEMPTS = 4;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** `first`, then the script, in one transaction (psql wraps every -c and -f of one run). */
async function runPsqlScript(url: string, first: string, script: string): Promise<void> {
  await runCommand('psql', [
    '--no-psqlrc',
    '--quiet',
    '--single-transaction',
    '-v',
    'ON_ERROR_STOP=1',
    '-c',
    first,
    '-f',
    script,
    '--dbname',
    url,
  ]);
}
