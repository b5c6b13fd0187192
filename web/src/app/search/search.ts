import type { SearchEntry } from './search-index.ts';

/** Spec §5/§9 search rules. */
export const SEARCH_MIN_CHARS = 2;
export const SEARCH_DEBOUNCE_MS = 300;
export const SEARCH_MAX_RESULTS = 20;
export const SEARCH_BLUR_HIDE_MS = 200;

// How much a match in each field adds to an entry's own relevance.
const TITLE_PREFIX = 30;
const TITLE_CONTAINS = 20;
const MODULE = 15;
const CATEGORY = 10;
const DESCRIPTION = 5;

/**
 * Case-insensitive match on title, description, module or category. Each result's relevance is
 * the entry's own plus how well it matched; results are sorted by that, then by title, at most 20.
 * Below 2 characters (after trimming) nothing matches.
 */
export function searchEntries(
  index: readonly SearchEntry[],
  query: string,
  limit: number = SEARCH_MAX_RESULTS,
): SearchEntry[] {
  const q = query.trim().toLowerCase();
  if (q.length < SEARCH_MIN_CHARS) return [];
  const hits: SearchEntry[] = [];
  for (const e of index) {
    const title = e.title.toLowerCase();
    let bonus = 0;
    let matched = false;
    if (title.startsWith(q)) {
      bonus += TITLE_PREFIX;
      matched = true;
    } else if (title.includes(q)) {
      bonus += TITLE_CONTAINS;
      matched = true;
    }
    if (e.module.toLowerCase().includes(q)) {
      bonus += MODULE;
      matched = true;
    }
    if (e.category.toLowerCase().includes(q)) {
      bonus += CATEGORY;
      matched = true;
    }
    if (e.description.toLowerCase().includes(q)) {
      bonus += DESCRIPTION;
      matched = true;
    }
    if (matched) hits.push({ ...e, relevance: e.relevance + bonus });
  }
  hits.sort((a, b) => b.relevance - a.relevance || a.title.localeCompare(b.title));
  return hits.slice(0, limit);
}
