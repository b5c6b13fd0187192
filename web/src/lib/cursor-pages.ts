/** Where a page of a server-paged list is read from: a neighbour's cursor, or an offset. */
export interface PagePosition {
  page: number;
  cursor?: string;
}

/** The page on screen with the cursors its answer carried (X-Next-Cursor / X-Prev-Cursor). */
export interface ShownPage {
  page: number;
  next?: string | undefined;
  prev?: string | undefined;
}

/**
 * Stepping to the next or previous page follows the server's cursor (keyset paging: as fast at
 * page 10,000 as at page 1, and no row is skipped or repeated when rows come and go meanwhile);
 * a jump to another page number, or the first page, is read by offset.
 */
export function pagePosition(shown: ShownPage, to: number): PagePosition {
  if (to === shown.page + 1 && shown.next) return { page: to, cursor: shown.next };
  if (to === shown.page - 1 && to > 1 && shown.prev) return { page: to, cursor: shown.prev };
  return { page: to };
}

/** The list query of a position: `cursor` or `offset`, never both. */
export function pageQuery(
  pos: PagePosition,
  pageSize: number,
): { limit: number; offset?: number; cursor?: string } {
  return pos.cursor
    ? { limit: pageSize, cursor: pos.cursor }
    : { limit: pageSize, offset: (pos.page - 1) * pageSize };
}
