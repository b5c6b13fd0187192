import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The console imports Mantine's stylesheets one component at a time (mantine-first.css with the
 * entry, mantine-console.css with the shell) instead of all of @mantine/core/styles.css. A
 * component whose stylesheet is in neither renders unstyled: this test finds every component the
 * app uses (its own imports, the Mantine packages it uses, and what those components use inside)
 * and names what is missing.
 */
const WEB_SRC = path.resolve(import.meta.dirname, '../..');
const THEME = import.meta.dirname;
const require = createRequire(import.meta.url);
/** A package's folder: up from its resolved entry to the package.json that names it. */
const packageDir = (name: string): string => {
  let dir = path.dirname(require.resolve(name));
  while (
    !existsSync(path.join(dir, 'package.json')) ||
    !readFileSync(path.join(dir, 'package.json'), 'utf8').includes(`"name": "${name}"`)
  ) {
    const up = path.dirname(dir);
    if (up === dir) throw new Error(`no package folder for ${name}`);
    dir = up;
  }
  return dir;
};
const CORE = packageDir('@mantine/core');
const COMPONENTS = path.join(CORE, 'esm/components');
const STYLES = path.join(CORE, 'styles');

function files(dir: string, test: (f: string) => boolean): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = path.join(dir, name);
    if (statSync(p).isDirectory()) return files(p, test);
    return test(p) ? [p] : [];
  });
}

/** Names imported from '@mantine/core' in these sources. */
function coreImports(sources: string[]): Set<string> {
  const names = new Set<string>();
  for (const file of sources) {
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(/import\s+\{([^}]*)\}\s+from\s+['"]@mantine\/core['"]/g))
      for (const part of m[1]!.split(','))
        names.add(
          part
            .trim()
            .replace(/^type\s+/, '')
            .split(/\s+as\s+/)[0]!,
        );
  }
  return names;
}

const appSources = files(WEB_SRC, (f) => /\.tsx?$/.test(f) && !/\.test\.tsx?$/.test(f));

/** Every @mantine/core component these sources render, directly or through Mantine's other packages. */
function usedComponents(sources: string[]): Set<string> {
  const used = coreImports(sources);
  const packages = new Set<string>();
  for (const f of sources)
    for (const m of readFileSync(f, 'utf8').matchAll(/from\s+['"]@mantine\/([a-z-]+)['"]/g))
      if (m[1] !== 'core' && m[1] !== 'hooks' && m[1] !== 'form') packages.add(m[1]!);
  for (const p of packages) {
    const esm = path.join(packageDir(`@mantine/${p}`), 'esm');
    for (const n of coreImports(files(esm, (f) => f.endsWith('.mjs')))) used.add(n);
  }
  // Components are folders of esm/components; what one uses inside is an import of another folder.
  const seen = new Set<string>();
  const todo = [...used].filter((n) => /^[A-Z]\w*$/.test(n) && existsSync(path.join(COMPONENTS, n)));
  while (todo.length) {
    const c = todo.pop()!;
    if (seen.has(c)) continue;
    seen.add(c);
    for (const f of files(path.join(COMPONENTS, c), (x) => x.endsWith('.mjs')))
      for (const m of readFileSync(f, 'utf8').matchAll(/from\s+'(?:\.\.\/)+([A-Z][A-Za-z]+)\//g))
        if (existsSync(path.join(COMPONENTS, m[1]!))) todo.push(m[1]!);
  }
  return seen;
}

/** The sources the entry (main.tsx) imports statically, directly or not: what /login runs. */
function entrySources(): string[] {
  const seen = new Set<string>();
  const todo = [path.join(WEB_SRC, 'main.tsx')];
  while (todo.length) {
    const file = todo.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    for (const m of readFileSync(file, 'utf8').matchAll(/^import\s[^;]*?from\s+'(\.[^']+)'/gms)) {
      const target = path.resolve(path.dirname(file), m[1]!);
      if (/\.tsx?$/.test(target) && existsSync(target)) todo.push(target);
    }
  }
  return [...seen];
}

const imported = (file: string) =>
  [
    ...readFileSync(path.join(THEME, file), 'utf8').matchAll(
      /@import '@mantine\/core\/styles\/([\w-]+)\.css';/g,
    ),
  ].map((m) => m[1]!);

/** Position of each stylesheet in @mantine/core/styles.css (by its first class). */
function canonicalOrder(): Map<string, number> {
  const all = readFileSync(path.join(CORE, 'styles.css'), 'utf8');
  const order = new Map<string, number>([
    ['baseline', -3],
    ['default-css-variables', -2],
    ['global', -1],
  ]);
  for (const f of readdirSync(STYLES)) {
    if (!f.endsWith('.css') || f.endsWith('.layer.css')) continue;
    const name = f.slice(0, -4);
    if (order.has(name)) continue;
    const cls = /\.(m_[0-9a-f]+)/.exec(readFileSync(path.join(STYLES, f), 'utf8'))?.[0];
    if (cls) order.set(name, all.indexOf(cls));
  }
  return order;
}

describe("Mantine's stylesheets (per component)", () => {
  const first = imported('mantine-first.css');
  const rest = imported('mantine-console.css');

  it('every component the app uses has its stylesheet imported', () => {
    const styled = new Set(readdirSync(STYLES).map((f) => f.replace(/\.css$/, '')));
    const needed = [...usedComponents(appSources)].filter((c) => styled.has(c)).sort();
    expect(needed.length).toBeGreaterThan(20);
    const have = new Set([...first, ...rest]);
    expect(needed.filter((c) => !have.has(c))).toEqual([]);
  });

  it("the entry's stylesheet covers what /login and the startup check render", () => {
    const styled = new Set(readdirSync(STYLES).map((f) => f.replace(/\.css$/, '')));
    const sources = entrySources();
    expect(sources.some((f) => f.endsWith('login-page.tsx'))).toBe(true);
    expect(sources.some((f) => f.endsWith('shell-layout.tsx'))).toBe(false);
    const needed = [...usedComponents(sources)].filter((c) => styled.has(c)).sort();
    expect(needed.filter((c) => !first.includes(c))).toEqual([]);
  });

  it('keeps the order of @mantine/core/styles.css, the base first', () => {
    const order = canonicalOrder();
    for (const list of [first, rest]) {
      const positions = list.map((n) => order.get(n) ?? NaN);
      expect(positions.every((p) => p >= -3)).toBe(true);
      expect(positions).toEqual([...positions].sort((a, b) => a - b));
    }
    // The shared base (what every component builds on) comes before any component of the console.
    const lastFirst = Math.max(...first.map((n) => order.get(n)!));
    const base = [
      'baseline',
      'default-css-variables',
      'global',
      'ScrollArea',
      'UnstyledButton',
      'Paper',
      'Popover',
    ];
    expect(base.filter((b) => !first.includes(b))).toEqual([]);
    expect(rest.filter((n) => order.get(n)! < order.get('FloatingIndicator')!)).toEqual([]);
    expect(lastFirst).toBeGreaterThan(0);
  });

  it('nothing imports the whole of @mantine/core/styles.css any more', () => {
    const whole = appSources.filter((f) =>
      /@mantine\/core\/styles(\.layer)?\.css/.test(readFileSync(f, 'utf8')),
    );
    expect(whole.map((f) => path.relative(WEB_SRC, f))).toEqual([]);
  });
});
