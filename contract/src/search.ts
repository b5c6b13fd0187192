import { z } from 'zod';
import { defineRoute } from './route.ts';
import { queryInt } from './validators.ts';

/** What the global search finds on the server (issue 12), one group each. */
export const SEARCH_KINDS = ['mailbox', 'alias', 'domain', 'zone', 'record'] as const;
export const SearchKind = z.enum(SEARCH_KINDS);
export type SearchKind = z.infer<typeof SearchKind>;

/** Spec §5/§9: the search needs at least 2 characters. */
export const SEARCH_MIN_LENGTH = 2;
export const SEARCH_DEFAULT_PER_GROUP = 5;

export const SearchQuery = z.object({
  q: z
    .string()
    .trim()
    .min(SEARCH_MIN_LENGTH, `Search must be at least ${SEARCH_MIN_LENGTH} characters`)
    .max(255, 'Search must be at most 255 characters'),
  limit: queryInt(1, 20, 'limit').optional(),
});
export type SearchQuery = z.infer<typeof SearchQuery>;

export const SearchHit = z.object({
  kind: SearchKind,
  /** The thing itself: an address, a domain, a zone, a record name. */
  title: z.string(),
  /** One line of context: a destination, a quota, the zone of a record… */
  description: z.string(),
  /** The console page that shows it (with its filter filled in). */
  path: z.string(),
});
export type SearchHit = z.infer<typeof SearchHit>;

export const SearchGroup = z.object({
  kind: SearchKind,
  label: z.string(),
  hits: z.array(SearchHit),
  /** True when the group has more matches than `limit`. */
  more: z.boolean(),
});
export type SearchGroup = z.infer<typeof SearchGroup>;

export const SearchResponse = z.object({ q: z.string(), groups: z.array(SearchGroup) });
export type SearchResponse = z.infer<typeof SearchResponse>;

export const SEARCH_GROUP_LABELS: Record<SearchKind, string> = {
  mailbox: 'Mailboxes',
  alias: 'Aliases',
  domain: 'Domains',
  zone: 'DNS Zones',
  record: 'DNS Records',
};

export const searchRoutes = {
  search: defineRoute({
    method: 'GET',
    path: 'search',
    summary: 'Mailboxes, aliases, domains, zones and records whose name starts with q, grouped',
    tags: ['search'],
    query: SearchQuery,
    response: SearchResponse,
    access: 'domain',
  }),
};
