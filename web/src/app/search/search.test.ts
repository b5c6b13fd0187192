import { describe, expect, it } from 'vitest';
import { SEARCH_INDEX, type SearchEntry } from './search-index.ts';
import {
  SEARCH_BLUR_HIDE_MS,
  SEARCH_DEBOUNCE_MS,
  SEARCH_MAX_RESULTS,
  SEARCH_MIN_CHARS,
  searchEntries,
} from './search.ts';

const entry = (over: Partial<SearchEntry>): SearchEntry => ({
  id: over.title ?? 'x',
  title: 'Title',
  description: 'Description',
  type: 'page',
  module: 'Module',
  route: '/x',
  icon: 'list',
  category: 'Pages',
  relevance: 50,
  ...over,
});

describe('the built-in index', () => {
  it('has exactly the 17 destinations of spec §2, and the Domains screen added since (issue 12)', () => {
    expect(SEARCH_INDEX.map((e) => e.route).sort()).toEqual(
      [
        '/mail/mailboxes',
        '/mail/aliases',
        '/mail/domains',
        '/mail/settings',
        '/dns/zones',
        '/dns/records',
        '/dns/settings',
        '/ssl/certificates',
        '/ssl/generate',
        '/ssl/settings',
        '/web/vhosts',
        '/web/applications',
        '/web/settings',
        '/mfa/management',
        '/mfa/recovery',
        '/system/monitoring',
        '/system/management',
        '/system',
      ].sort(),
    );
  });

  it('entries carry the spec §3 fields with matching type and category', () => {
    const cat = { action: 'Actions', page: 'Pages', settings: 'Settings' };
    for (const e of SEARCH_INDEX) {
      expect(e.id).toBeTruthy();
      expect(e.title).toBeTruthy();
      expect(e.description).toBeTruthy();
      expect(e.icon).toBeTruthy();
      expect(e.category).toBe(cat[e.type]);
    }
    expect(new Set(SEARCH_INDEX.map((e) => e.id)).size).toBe(SEARCH_INDEX.length);
  });
});

describe('searchEntries', () => {
  it('uses the spec constants', () => {
    expect([SEARCH_MIN_CHARS, SEARCH_DEBOUNCE_MS, SEARCH_MAX_RESULTS, SEARCH_BLUR_HIDE_MS]).toEqual([
      2, 300, 20, 200,
    ]);
  });

  it('needs at least 2 characters (after trimming)', () => {
    expect(searchEntries(SEARCH_INDEX, '')).toEqual([]);
    expect(searchEntries(SEARCH_INDEX, 'm')).toEqual([]);
    expect(searchEntries(SEARCH_INDEX, ' m ')).toEqual([]);
    expect(searchEntries(SEARCH_INDEX, 'ma').length).toBeGreaterThan(0);
  });

  it('matches case-insensitively on title, description, module and category', () => {
    const idx = [
      entry({ title: 'Alpha', route: '/a' }),
      entry({ title: 'Beta', description: 'holds the QUOTA', route: '/b' }),
      entry({ title: 'Gamma', module: 'Postbox', route: '/c' }),
      entry({ title: 'Delta', category: 'Settings', type: 'settings', route: '/d' }),
      entry({ title: 'Epsilon', route: '/e' }),
    ];
    expect(searchEntries(idx, 'ALPHA').map((e) => e.route)).toEqual(['/a']);
    expect(searchEntries(idx, 'quota').map((e) => e.route)).toEqual(['/b']);
    expect(searchEntries(idx, 'postBOX').map((e) => e.route)).toEqual(['/c']);
    expect(searchEntries(idx, 'settings').map((e) => e.route)).toEqual(['/d']);
    expect(searchEntries(idx, 'zzz')).toEqual([]);
  });

  it('sorts by relevance, then by title, and a title match outranks a description match', () => {
    const idx = [
      entry({ title: 'Zeta', description: 'about certs', relevance: 60, route: '/1' }),
      entry({ title: 'Certs B', relevance: 40, route: '/2' }),
      entry({ title: 'Certs A', relevance: 40, route: '/3' }),
    ];
    const r = searchEntries(idx, 'certs');
    expect(r.map((e) => e.title)).toEqual(['Certs A', 'Certs B', 'Zeta']);
    expect(r[0]!.relevance).toBeGreaterThan(r[2]!.relevance);
  });

  it('returns at most 20 results', () => {
    const idx = Array.from({ length: 30 }, (_, i) =>
      entry({ title: `Mail page ${String(i).padStart(2, '0')}`, route: `/p${i}` }),
    );
    const r = searchEntries(idx, 'mail');
    expect(r).toHaveLength(20);
    expect(r[0]!.title).toBe('Mail page 00');
  });

  it('finds the real destinations', () => {
    expect(searchEntries(SEARCH_INDEX, 'alias')[0]!.route).toBe('/mail/aliases');
    expect(
      searchEntries(SEARCH_INDEX, 'dns').every((e) => e.module === 'DNS' || /dns/i.test(e.description)),
    ).toBe(true);
    expect(searchEntries(SEARCH_INDEX, 'settings').map((e) => e.category)).toContain('Settings');
  });

  it('does not modify the index', () => {
    const before = JSON.stringify(SEARCH_INDEX);
    searchEntries(SEARCH_INDEX, 'mail');
    expect(JSON.stringify(SEARCH_INDEX)).toBe(before);
  });
});
