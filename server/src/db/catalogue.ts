import { type Kysely, sql } from 'kysely';
import type { Database } from './schema.ts';

/** The database as a whole (what a backup copies): its tables, its migrations, a SQLite copy. */

/** The database's tables, by name. */
export async function listTables(db: Kysely<Database>, dialect: 'sqlite' | 'postgres'): Promise<string[]> {
  const q =
    dialect === 'sqlite'
      ? sql<{
          name: string;
        }>`select name from sqlite_master where type = 'table' and name not like 'sqlite_%' order by name`
      : sql<{
          name: string;
        }>`select tablename as name from pg_tables where schemaname = current_schema() order by tablename`;
  return (await q.execute(db)).rows.map((r) => r.name);
}

/** The migrations applied, by name. */
export async function appliedMigrations(db: Kysely<Database>): Promise<string[]> {
  const rows = await sql<{ name: string }>`select name from kysely_migration order by name`.execute(db);
  return rows.rows.map((r) => r.name);
}

/** Writes a consistent copy of the whole SQLite database to `target` (VACUUM INTO; SQLite only). */
export async function vacuumInto(db: Kysely<Database>, target: string): Promise<void> {
  await sql`vacuum into ${sql.lit(target)}`.execute(db);
}
