import { fieldError } from './errors.ts';

/** A key value in a cursor: what a sort column holds. */
export type KeyValue = string | number | null;

/**
 * A position in one list order: the sort it belongs to, whether the page lies after or before it,
 * and the key values (sort value(s) and the unique tie-breaker) of the row it points past.
 */
export interface Cursor {
  sort: string;
  dir: 'after' | 'before';
  keys: KeyValue[];
}

const INVALID = 'cursor is not valid for this list and sort; use a value from X-Next-Cursor or X-Prev-Cursor';

/** Opaque to clients: base64url of a small JSON array. */
export function encodeCursor(c: Cursor): string {
  return Buffer.from(JSON.stringify([c.sort, c.dir === 'after' ? 1 : 0, c.keys]), 'utf8').toString(
    'base64url',
  );
}

const isKey = (v: unknown): v is KeyValue =>
  v === null || typeof v === 'string' || (typeof v === 'number' && Number.isFinite(v));

/**
 * Reads a cursor given for `sort` whose keys have the given kinds; anything else (garbage, another
 * sort's cursor, wrong key types) is a 400 naming the `cursor` field.
 */
export function decodeCursor(raw: string, sort: string, kinds: readonly ('string' | 'number')[]): Cursor {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8'));
  } catch {
    throw fieldError('cursor', INVALID);
  }
  if (!Array.isArray(parsed) || parsed.length !== 3) throw fieldError('cursor', INVALID);
  const [s, d, keys] = parsed as unknown[];
  if (s !== sort || (d !== 0 && d !== 1) || !Array.isArray(keys) || keys.length !== kinds.length)
    throw fieldError('cursor', INVALID);
  const ok = keys.every((k, i) => isKey(k) && typeof k === kinds[i]);
  if (!ok) throw fieldError('cursor', INVALID);
  return { sort, dir: d === 1 ? 'after' : 'before', keys: keys as KeyValue[] };
}

/** A cursor and an offset name two different places: only one of them may be given. */
export function refuseCursorWithOffset(query: {
  cursor?: string | undefined;
  offset?: number | undefined;
}): void {
  if (query.cursor !== undefined && query.offset !== undefined && query.offset !== 0)
    throw fieldError('offset', 'Give either cursor or offset, not both');
}

/** A page of a list with its total and the cursors of its neighbours. */
export interface CursorPage<T> {
  items: T[];
  total: number;
  /** `total` is the count's cap (TOTAL_CAP), not the whole count. */
  capped?: boolean | undefined;
  /** Cursor of the next page (absent when this is the last). */
  next?: string | undefined;
  /** Cursor of the previous page (absent when this is the first). */
  prev?: string | undefined;
}

/**
 * The neighbours' cursors of a page whose rows have the given key values (in list order): `next`
 * points past the last row, `prev` before the first.
 */
export function neighbourCursors(
  sort: string,
  keys: KeyValue[][],
  has: { next: boolean; prev: boolean },
): { next?: string; prev?: string } {
  const first = keys[0];
  const last = keys[keys.length - 1];
  return {
    ...(has.next && last ? { next: encodeCursor({ sort, dir: 'after', keys: last }) } : {}),
    ...(has.prev && first ? { prev: encodeCursor({ sort, dir: 'before', keys: first }) } : {}),
  };
}
