export interface Page<T> {
  data: T[];
  total: number;
}

/**
 * Reads a server-paged list to the end, `limit` rows at a time. Stops at the reported total or at a
 * short page, whichever comes first, so rows added or removed meanwhile cannot make it loop.
 */
export async function collectPages<T>(
  fetchPage: (offset: number, limit: number) => Promise<Page<T>>,
  limit: number,
  onProgress?: (done: number, total: number) => void,
): Promise<T[]> {
  const rows: T[] = [];
  for (;;) {
    const page = await fetchPage(rows.length, limit);
    rows.push(...page.data);
    onProgress?.(rows.length, Math.max(page.total, rows.length));
    if (page.data.length < limit || rows.length >= page.total) return rows;
  }
}
