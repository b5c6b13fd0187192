import path from 'node:path';

/** Rollup's view of the module graph as `manualChunks` sees it. */
interface GraphContext {
  /** Rollup has it; the type-checker reads Rolldown's types (vitest's Vite), which do not. */
  getModuleIds?: () => IterableIterator<string>;
  getModuleInfo(id: string): { importedIds: readonly string[]; isEntry: boolean; code: string | null } | null;
}

const REEXPORT = /export\s*\{([^}]*)\}\s*from\s*['"]([^'"]+)['"]/g;
const NAMED_IMPORT = /(?:import|export)\s*(?:type\s+)?\{([^}]*)\}\s*from\s*['"]([^'"]+)['"]/g;
const SPECIFIER = /['"]([^'"]+)['"]/g;
/** A package's index that only re-exports (Mantine, Tabler icons): at least this many re-exports. */
const BARREL_MIN = 20;

const names = (list: string) =>
  list
    .split(',')
    .map((p) => p.trim().replace(/^type\s+/, ''))
    .filter(Boolean)
    .map((p) => {
      const [local, exported] = p.split(/\s+as\s+/);
      return { local: local!, exported: exported ?? local! };
    });

/** The package a node_modules id belongs to ('@mantine/core', 'react'). */
function packageOf(id: string): string | null {
  const i = id.lastIndexOf('/node_modules/');
  if (i < 0) return null;
  const parts = id.slice(i + '/node_modules/'.length).split('/');
  return parts[0]!.startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0]!;
}

/**
 * One chunk for the signed-in console's first screen: the shell (header, sidebar, search, toasts,
 * modals, TanStack Query) and the dashboard, with every module they use that the entry (/login)
 * does not already hold.
 *
 * Without it the bundler cut that code at every boundary two lazy routes share (a chunk per
 * Mantine component, per icon, per API helper), and the dashboard waited for some 50 small
 * scripts before its first paint: on a mobile line each is a round trip, six at a time. The other
 * pages keep their own chunks and import what they share with the first screen from this one,
 * which is always loaded when they are (they live inside the shell).
 *
 * "Uses" follows the names a module imports through a package's index (`import { Button } from
 * '@mantine/core'` is Button's module, not all of Mantine), as the bundler's tree-shaking does.
 */
export function firstScreenChunk(root: string) {
  const consoleRoots = [
    path.resolve(root, 'src/app/shell/shell-layout.tsx'),
    path.resolve(root, 'src/features/dashboard/dashboard-page.tsx'),
  ];
  let initial: Set<string> | null = null;
  let members: Set<string> | null = null;

  /** Export name → module id of a barrel (null when the module is not one). */
  const barrels = new Map<string, Map<string, string> | null>();
  const barrelOf = (id: string, ctx: GraphContext): Map<string, string> | null => {
    if (barrels.has(id)) return barrels.get(id)!;
    const info = ctx.getModuleInfo(id);
    let map: Map<string, string> | null = null;
    if (info?.code && packageOf(id)) {
      const found = new Map<string, string>();
      for (const m of info.code.matchAll(REEXPORT)) {
        const spec = m[2]!;
        const target = spec.startsWith('.')
          ? path.resolve(path.dirname(id), spec)
          : info.importedIds.find((d) => packageOf(d) === spec);
        if (!target) continue;
        for (const n of names(m[1]!)) found.set(n.exported, target);
      }
      if (found.size >= BARREL_MIN) map = found;
    }
    barrels.set(id, map);
    return map;
  };

  /** What a module uses: its imports, and through a barrel only the modules of the names it takes. */
  const uses = (id: string, ctx: GraphContext): string[] => {
    const info = ctx.getModuleInfo(id);
    if (!info) return [];
    const out: string[] = [];
    for (const dep of info.importedIds) {
      const barrel = barrelOf(dep, ctx);
      const pkg = packageOf(dep);
      if (!barrel || !pkg || !info.code) {
        out.push(dep);
        continue;
      }
      const fromPackage = (spec: string) => spec === pkg;
      let precise = true;
      const taken: string[] = [];
      let read = 0;
      for (const m of info.code.matchAll(NAMED_IMPORT)) {
        if (!fromPackage(m[2]!)) continue;
        read++;
        for (const n of names(m[1]!)) {
          const target = barrel.get(n.local);
          if (target) taken.push(target);
          else precise = false;
        }
      }
      // Any other mention of the package (a default or namespace import, a dynamic import) is a
      // use this reading cannot follow: it counts as using the whole package.
      const mentions = [...info.code.matchAll(SPECIFIER)].filter((m) => fromPackage(m[1]!)).length;
      if (mentions !== read) precise = false;
      if (precise) out.push(...taken);
      else out.push(dep);
    }
    return out;
  };

  const closure = (roots: string[], ctx: GraphContext): Set<string> => {
    const seen = new Set<string>();
    const todo = [...roots];
    while (todo.length) {
      const id = todo.pop()!;
      if (seen.has(id)) continue;
      seen.add(id);
      const barrel = barrelOf(id, ctx);
      // A barrel reached as a whole (see above) brings all it re-exports.
      todo.push(...(barrel ? barrel.values() : uses(id, ctx)));
    }
    return seen;
  };

  /** For `output.manualChunks`: the entry's modules, the first screen's, nothing for the rest. */
  return (id: string, ctx: GraphContext): string | undefined => {
    if (!members || !initial) {
      // The entries (index.html's script) and all they use: what /login loads.
      const entries = ctx.getModuleIds
        ? [...ctx.getModuleIds()].filter((m) => ctx.getModuleInfo(m)?.isEntry)
        : [path.resolve(root, 'index.html')];
      for (const r of consoleRoots)
        if (!ctx.getModuleInfo(r)) throw new Error(`firstScreenChunk: ${r} is not in the build`);
      const entryModules = closure(entries, ctx);
      initial = entryModules;
      members = new Set([...closure(consoleRoots, ctx)].filter((m) => !entryModules.has(m)));
    }
    // Rollup moves a manual chunk's dependencies into it unless they have a chunk of their own:
    // the entry's modules are named too, so that they stay in the entry.
    if (initial.has(id)) return 'index';
    if (members.has(id)) return 'console';
    // A package index (all of Mantine, all icons) is a dependency of the chunks above: without a
    // chunk of its own Rollup would move it, and every module it re-exports, into one of them.
    // Here its chunk holds what only the other pages use (the rest is tree-shaken away).
    const pkg = packageOf(id);
    if (pkg && barrelOf(id, ctx)) return `lazy-${pkg.replace(/^@/, '').replace(/\//g, '-')}`;
    return undefined;
  };
}
