import { type RawBuilder, sql } from 'kysely';
import type { KeyValue } from '../http/cursor.ts';

/**
 * Keyset ("seek") paging over a total order `keys` (sort expressions, the last one unique), all
 * in one direction. A page after a position reads `(k1, …, kn) > (v1, …, vn)` in list order; a
 * page before it reads the reverse order and is turned back. Either way the database starts at
 * the position in the index, so page 10,000 costs what page 1 costs.
 */
export interface KeysetOrder {
  keys: RawBuilder<unknown>[];
  desc: boolean;
}

/** The order to read in: the list's order, or its reverse for a page before a position. */
export function keysetOrderBy(o: KeysetOrder, reverse: boolean): RawBuilder<unknown> {
  const down = o.desc !== reverse;
  return sql.join(o.keys.map((k) => sql`${k} ${down ? sql`desc` : sql`asc`}`));
}

/** The row-value condition "after (or before) this position" in the list's order. */
export function keysetAfter(o: KeysetOrder, values: KeyValue[], before: boolean): RawBuilder<unknown> {
  const greater = o.desc === before;
  const left = sql.join(o.keys);
  const right = sql.join(values.map((v) => sql`${v}`));
  return greater ? sql`(${left}) > (${right})` : sql`(${left}) < (${right})`;
}

/** Rows read for a page (limit + 1, to know whether there is more), put in list order. */
export function keysetPage<T>(rows: T[], limit: number, before: boolean): { rows: T[]; more: boolean } {
  const more = rows.length > limit;
  const page = more ? rows.slice(0, limit) : rows;
  return { rows: before ? page.reverse() : page, more };
}
