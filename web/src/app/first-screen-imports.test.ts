import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * zod stays off the first screen: the entry (/login) and the console's first chunk (the shell and
 * the dashboard, web/first-screen-chunks.ts) reach no module that imports zod at run time. Their
 * static imports are followed as the bundler does (dynamic `import()` starts another chunk);
 * `import type` and `export type` are erased. With verbatimModuleSyntax an `import { type A }`
 * stays an import of its module, so it counts.
 */
const web = path.resolve(import.meta.dirname, '../..');
const contractSrc = path.resolve(web, '../contract/src');
const ROOTS = ['src/main.tsx', 'src/app/shell/shell-layout.tsx', 'src/features/dashboard/dashboard-page.tsx'];

const STATIC_IMPORT = /^\s*(?:import|export)\s+(type\s+)?(?:[\w*{}\s,$]+?\s+from\s+)?['"]([^'"]+)['"]/gm;

/** Runtime imports of one source file: [specifier, resolved file or null for a package]. */
function importsOf(file: string): { spec: string; file: string | null }[] {
  const code = readFileSync(file, 'utf8');
  const out: { spec: string; file: string | null }[] = [];
  for (const m of code.matchAll(STATIC_IMPORT)) {
    if (m[1]) continue;
    const spec = m[2]!;
    let target: string | null = null;
    if (spec.startsWith('.')) target = path.resolve(path.dirname(file), spec);
    else if (spec.startsWith('@mailroom/contract/')) target = path.join(contractSrc, `${spec.slice(19)}.ts`);
    if (target && !/\.(tsx?|jsx?)$/.test(target)) target = null; // stylesheets
    if (target && !existsSync(target)) throw new Error(`${file}: cannot resolve ${spec}`);
    out.push({ spec, file: target });
  }
  return out;
}

/** Every chain from the roots to a module that imports `pkg`. */
function chainsTo(pkg: string): string[] {
  const parent = new Map<string, string | null>();
  const todo = ROOTS.map((r) => path.resolve(web, r));
  for (const r of todo) parent.set(r, null);
  const found: string[] = [];
  while (todo.length) {
    const file = todo.shift()!;
    for (const dep of importsOf(file)) {
      if (dep.spec === pkg || dep.spec.startsWith(`${pkg}/`)) {
        const chain = [file];
        for (let p = parent.get(file); p; p = parent.get(p)) chain.unshift(p);
        found.push(chain.map((f) => path.relative(web, f)).join(' → '));
      }
      if (dep.file && !parent.has(dep.file)) {
        parent.set(dep.file, file);
        todo.push(dep.file);
      }
    }
  }
  return found;
}

describe('first-screen imports', () => {
  it('reads the imports the way the bundler keeps them', () => {
    // The walk reaches the API client, which imports the contract's zod-free route helpers.
    const client = importsOf(path.resolve(web, 'src/api/client.ts')).map((d) => d.spec);
    expect(client).toContain('@mailroom/contract/route');
    expect(client).toContain('@mailroom/contract/messages');
    // It finds what the first screen does import: the shell's notifications, through the chain.
    expect(chainsTo('@mantine/notifications')).toContain('src/app/shell/shell-layout.tsx');
  });

  it('no module of /login or of the console first screen imports zod', () => {
    expect(chainsTo('zod')).toEqual([]);
  });
});
