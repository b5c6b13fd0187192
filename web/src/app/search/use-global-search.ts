import type { SearchKind } from '@mailroom/contract/search';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useDebouncedValue } from '@mantine/hooks';
import { useMemo } from 'react';
import { apiCall, errorMessage } from '../../api/client.ts';
import { searchRoutes } from '../../api/first-screen-routes.ts';
import { SEARCH_INDEX } from './search-index.ts';
import { SEARCH_DEBOUNCE_MS, SEARCH_MIN_CHARS, searchEntries } from './search.ts';

/** One row of the search dropdown: a console page from the built-in index, or a thing on the server. */
export interface SearchResult {
  /** Unique across groups (the option value). */
  key: string;
  title: string;
  description: string;
  route: string;
  icon: string;
  badge: string;
}

export interface SearchResultGroup {
  key: 'pages' | SearchKind;
  label: string;
  results: SearchResult[];
  more: boolean;
}

const KIND_ICON: Record<SearchKind, string> = {
  mailbox: 'mail',
  alias: 'forward',
  domain: 'world',
  zone: 'world',
  record: 'list',
};

const KIND_BADGE: Record<SearchKind, string> = {
  mailbox: 'Mailbox',
  alias: 'Alias',
  domain: 'Domain',
  zone: 'Zone',
  record: 'Record',
};

/**
 * The global search (spec §5/§9: at least 2 characters, 300 ms debounce): the pages of the built-in
 * index and, from the server, mailboxes, aliases, domains, zones and records whose name starts with
 * the query, one group each.
 */
export function useGlobalSearch(value: string) {
  const [debounced] = useDebouncedValue(value.trim(), SEARCH_DEBOUNCE_MS);
  const enough = value.trim().length >= SEARCH_MIN_CHARS;
  const ready = debounced.length >= SEARCH_MIN_CHARS;
  const server = useQuery({
    queryKey: ['search', debounced],
    queryFn: () => apiCall(searchRoutes.search, { query: { q: debounced } }),
    enabled: ready,
    staleTime: 5_000,
    retry: false,
    placeholderData: keepPreviousData,
  });

  const groups = useMemo<SearchResultGroup[]>(() => {
    if (!ready) return [];
    const pages = searchEntries(SEARCH_INDEX, debounced);
    const out: SearchResultGroup[] = [];
    if (pages.length)
      out.push({
        key: 'pages',
        label: 'Pages',
        more: false,
        results: pages.map((p) => ({
          key: `page:${p.id}`,
          title: p.title,
          description: p.description,
          route: p.route,
          icon: p.icon,
          badge: p.category,
        })),
      });
    // Only the answer for what is typed now (keepPreviousData shows the last one while waiting).
    if (server.data && server.data.q.toLowerCase() === debounced.toLowerCase())
      for (const g of server.data.groups)
        out.push({
          key: g.kind,
          label: g.label,
          more: g.more,
          results: g.hits.map((h) => ({
            key: `${h.kind}:${h.title}:${h.path}`,
            title: h.title,
            description: h.description,
            route: h.path,
            icon: KIND_ICON[h.kind],
            badge: KIND_BADGE[h.kind],
          })),
        });
    return out;
  }, [ready, debounced, server.data]);

  const waiting = enough && (value.trim() !== debounced || server.isFetching);
  return {
    enough,
    waiting,
    groups,
    count: groups.reduce((n, g) => n + g.results.length, 0),
    error: server.error ? errorMessage(server.error) : null,
  };
}
