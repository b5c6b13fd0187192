import type { ColumnDataType, CreateTableBuilder, Kysely } from 'kysely';
import { isPostgres } from './database.ts';

/** Dialect-neutral helpers for migrations: one migration set serves SQLite and PostgreSQL. */
export function withId<T extends string>(
  db: Kysely<unknown>,
  tb: CreateTableBuilder<T>,
): CreateTableBuilder<T> {
  return isPostgres(db)
    ? tb.addColumn('id', 'serial', (c) => c.primaryKey())
    : tb.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement());
}

/** 64-bit integer: bigint on PostgreSQL, integer on SQLite (which is 64-bit anyway). */
export function bigint(db: Kysely<unknown>): ColumnDataType {
  return isPostgres(db) ? 'bigint' : 'integer';
}
