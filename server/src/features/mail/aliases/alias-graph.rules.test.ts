import type { Kysely } from 'kysely';
import { describe, expect, it } from 'vitest';
import type { Database } from '../../../db/schema.ts';
import { AliasGraph } from './alias-graph.rules.ts';

/** A graph whose every node is known, so no database is asked. */
function graph(edges: Record<string, string[]>): AliasGraph {
  const g = new AliasGraph(null as unknown as Kysely<Database>);
  const nodes = new Set([...Object.keys(edges), ...Object.values(edges).flat()]);
  for (const n of nodes) g.set(n, edges[n] ?? []);
  return g;
}

describe('AliasGraph.findLoop', () => {
  it('finds a loop through several hops and answers the shortest chain', async () => {
    const g = graph({ b: ['c', 'x'], c: ['d'], d: ['a', 'b'] });
    expect(await g.findLoop('a', ['b'])).toEqual(['a', 'b', 'c', 'd', 'a']);
  });

  it('finds a direct loop and a self loop', async () => {
    expect(await graph({ b: ['a'] }).findLoop('a', ['b'])).toEqual(['a', 'b', 'a']);
    expect(await graph({}).findLoop('a', ['a'])).toEqual(['a', 'a']);
  });

  it('accepts chains and diamonds that never come back', async () => {
    const g = graph({ b: ['c', 'd'], c: ['e'], d: ['e'], e: ['outside'] });
    expect(await g.findLoop('a', ['b'])).toBeNull();
  });

  it('ignores a loop elsewhere in the graph that does not pass the new source', async () => {
    const g = graph({ b: ['c'], c: ['b'] });
    expect(await g.findLoop('a', ['b'])).toBeNull();
  });
});

describe('AliasGraph with catch-alls', () => {
  it('refuses catch-alls that send each other unknown addresses, and a catch-all to its own unknown address', async () => {
    // x@b.test is no alias and no mailbox: it falls to @b.test.
    const g = graph({ '@b.test': ['y@a.test'], 'y@a.test': ['@a.test'], 'x@b.test': ['@b.test'] });
    expect(await g.findLoop('@a.test', ['x@b.test'])).toEqual([
      '@a.test',
      'x@b.test',
      '@b.test',
      'y@a.test',
      '@a.test',
    ]);
    expect(await graph({ 'x@a.test': ['@a.test'] }).findLoop('@a.test', ['x@a.test'])).toEqual([
      '@a.test',
      'x@a.test',
      '@a.test',
    ]);
  });

  it('accepts a catch-all to a mailbox, and an address that falls to no catch-all', async () => {
    const g = graph({ 'box@a.test': [], 'ext@b.test': ['@b.test'] });
    g.set('@b.test', null as unknown as string[]);
    expect(await g.findLoop('@a.test', ['box@a.test'])).toBeNull();
    expect(g.leadsNowhere('other@a.test', ['ext@b.test'])).toBe(true);
  });
});
