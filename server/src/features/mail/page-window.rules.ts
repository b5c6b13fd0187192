export interface PageWindow {
  /** Read in the opposite order (then put the page back in the asked order). */
  reverse: boolean;
  offset: number;
  limit: number;
}

/**
 * Where to read the page at `offset` of `total` rows. An offset walks the index entry by entry,
 * so a page in the second half is read from the other end: the deepest page costs what the first
 * does, and no page walks more than half the index. Only valid for a total order (a unique last
 * sort key) and an exact `total`.
 */
export function pageWindow(total: number, offset: number, limit: number): PageWindow {
  const end = Math.min(total, offset + limit);
  const fromEnd = total - end;
  if (offset >= total || fromEnd >= offset) return { reverse: false, offset, limit };
  return { reverse: true, offset: fromEnd, limit: end - offset };
}
