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
  // One transaction: the tables are emptied and refilled together, or not at all. A background
  // writer of this server (a job's heartbeat, a roll-up) may hold a table the TRUNCATE waits for
  // while it waits for one the TRUNCATE holds: PostgreSQL then ends one of the two ("deadlock
  // detected"). Nothing of an ended transaction stays, so it is run again.
  for (let attempt = 1; ; attempt++) {
    try {
      await runPsqlScript(database.postgresUrl!, script);
      return;
    } catch (err) {
      if (attempt >= PSQL_ATTEMPTS || !/deadlock detected/.test((err as Error).message)) throw err;
      await new Promise((r) => setTimeout(r, 200 * attempt));
    }
  }
}

const PSQL_ATTEMPTS = 4;

async function runPsqlScript(url: string, script: string): Promise<void> {
  await runCommand('psql', [
    '--no-psqlrc',
    '--quiet',
    '--single-transaction',
    '-v',
    'ON_ERROR_STOP=1',
    '-f',
    script,
    '--dbname',
    url,
  ]);
}
