import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// ESLint's import-x/no-cycle skips `import type`, so a cycle made of type imports passes the lint;
// this walks every relative import (type-only included) of the three parts' sources.
const ROOT = path.resolve(import.meta.dirname, '../..');
const PARTS = ['server/src', 'web/src', 'contract/src'];
const IMPORT_RE = /(?:import|export)\s+(?:type\s+)?(?:[^'";]*?\sfrom\s+)?['"](\.{1,2}\/[^'"]+)['"]/g;

function sources(dir: string, out: string[] = []): string[] {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) sources(p, out);
    else if (/\.tsx?$/.test(e.name) && !/\.test\.tsx?$/.test(e.name)) out.push(p);
  }
  return out;
}

function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of PARTS.flatMap((p) => sources(path.join(ROOT, p)))) {
    const deps: string[] = [];
    for (const m of readFileSync(file, 'utf8').matchAll(IMPORT_RE)) {
      const target = path.resolve(path.dirname(file), m[1]!);
      if (existsSync(target)) deps.push(target);
    }
    graph.set(file, deps);
  }
  return graph;
}

/** Strongly connected components of more than one file (Tarjan). */
export function cycles(graph: Map<string, string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string) => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const scc: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        scc.push(w);
      } while (w !== v);
      if (scc.length > 1) found.push(scc);
    }
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return found;
}

describe('import graph', () => {
  it('finds a cycle made of type-only imports', () => {
    const g = new Map([
      ['a', ['b']],
      ['b', ['a']],
      ['c', ['a']],
    ]);
    expect(cycles(g)).toEqual([['b', 'a']]);
  });

  it('has no cycle in server, web and contract, type-only imports included', () => {
    const found = cycles(importGraph()).map((c) => c.map((f) => path.relative(ROOT, f)).join(' ↔ '));
    expect(found).toEqual([]);
  });
});
