import { type Kysely, sql } from 'kysely';
import { isPostgres } from '../../../db/database.ts';
import type { Database } from '../../../db/schema.ts';

/**
 * Set-based statements for imports: the whole list travels as one parameter (a JSON array read by
 * SQLite's json_each, a text[] on PostgreSQL), so 100k rows are a handful of statements rather
 * than thousands, and nothing is compiled per row.
 */

type Db = Kysely<Database>;
const pg = (db: Db) => isPostgres(db as unknown as Kysely<unknown>);
const CHUNK = 50_000;

function chunks<T>(items: T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += CHUNK) out.push(items.slice(i, i + CHUNK));
  return out;
}

/**
 * Which of `values` are present in `table.column`. `tableRows` (about how many rows the table
 * has) picks the plan: a table no bigger than the list is read whole and matched in memory,
 * otherwise the list is looked up in the table's index.
 */
export async function existing(
  db: Db,
  table: 'mail_aliases' | 'mailboxes',
  column: 'source' | 'email',
  values: string[],
  tableRows: number,
): Promise<Set<string>> {
  const found = new Set<string>();
  if (tableRows <= values.length) {
    const all = sql<{ v: string }>`select ${sql.ref(column)} as v from ${sql.table(table)}`;
    const { rows } = await all.execute(db);
    if (!rows.length) return found;
    const wanted = new Set(values);
    for (const r of rows) if (wanted.has(r.v)) found.add(r.v);
    return found;
  }
  for (const part of chunks(values)) {
    const list = pg(db)
      ? sql`select ${sql.ref(column)} as v from ${sql.table(table)} where ${sql.ref(column)} = any(${part}::text[])`
      : sql`select ${sql.ref(column)} as v from ${sql.table(table)} where ${sql.ref(column)} in (select value from json_each(${JSON.stringify(part)}))`;
    const { rows } = await list.execute(db);
    for (const r of rows as { v: string }[]) found.add(r.v);
  }
  return found;
}

/** Alias sources among `sources`, with their destination lists. */
export async function aliasEdges(db: Db, sources: string[]): Promise<Map<string, string>> {
  const found = new Map<string, string>();
  for (const part of chunks(sources)) {
    const q = pg(db)
      ? sql`select source, destination from mail_aliases where source = any(${part}::text[])`
      : sql`select source, destination from mail_aliases where source in (select value from json_each(${JSON.stringify(part)}))`;
    const { rows } = await q.execute(db);
    for (const r of rows as { source: string; destination: string }[]) found.set(r.source, r.destination);
  }
  return found;
}

export interface AliasRow {
  source: string;
  domain: string;
  destination: string;
  status: string;
}

export async function insertAliasRows(db: Db, rows: AliasRow[]): Promise<void> {
  const now = new Date().toISOString();
  for (const part of chunks(rows)) {
    if (pg(db)) {
      await sql`
        insert into mail_aliases (source, domain, destination, status, created_at, updated_at)
        select s, d, t, st, ${now}, ${now}
        from unnest(${part.map((r) => r.source)}::text[], ${part.map((r) => r.domain)}::text[],
                    ${part.map((r) => r.destination)}::text[], ${part.map((r) => r.status)}::text[]) as x(s, d, t, st)
      `.execute(db);
    } else {
      const json = JSON.stringify(part.map((r) => [r.source, r.domain, r.destination, r.status]));
      await sql`
        insert into mail_aliases (source, domain, destination, status, created_at, updated_at)
        select value ->> 0, value ->> 1, value ->> 2, value ->> 3, ${now}, ${now} from json_each(${json})
      `.execute(db);
    }
  }
}
