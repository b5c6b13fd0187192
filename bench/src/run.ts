// `npm run bench [-- <suite> ...]`: runs every suite in bench/src/<name>/index.ts (or the named
// ones) and prints one table. `npm run bench -- --list` lists the suites.
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { formatTable } from './lib/table.ts';
import type { BenchRow, BenchSuite } from './suite.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const SRC = import.meta.dirname;
const OUT = path.join(ROOT, 'bench/out');

function isSuite(x: unknown): x is BenchSuite {
  const s = x as Partial<BenchSuite> | null;
  return !!s && typeof s.name === 'string' && typeof s.run === 'function';
}

async function discover(): Promise<BenchSuite[]> {
  const suites: BenchSuite[] = [];
  const dirs = readdirSync(SRC, { withFileTypes: true }).filter((d) => d.isDirectory() && d.name !== 'lib');
  for (const d of dirs.sort((a, b) => a.name.localeCompare(b.name))) {
    const file = path.join(SRC, d.name, 'index.ts');
    if (!existsSync(file)) continue;
    const mod = (await import(pathToFileURL(file).href)) as { default?: unknown };
    if (!isSuite(mod.default)) throw new Error(`${file} must export a BenchSuite as default`);
    suites.push(mod.default);
  }
  return suites;
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

async function main(): Promise<number> {
  // `--name=value` flags belong to the suites (e.g. cluster's --seconds=600); the rest are names.
  const args = process.argv.slice(2).filter((a) => !/^--[\w-]+=/.test(a));
  const all = await discover();
  if (args.includes('--list')) {
    for (const s of all) process.stdout.write(`${s.name.padEnd(14)} ${s.description}\n`);
    return 0;
  }
  const unknown = args.filter((a) => !all.some((s) => s.name === a));
  if (unknown.length) {
    process.stderr.write(
      `Unknown suite ${unknown.join(', ')}. Suites: ${all.map((s) => s.name).join(', ')}\n`,
    );
    return 2;
  }
  const chosen = args.length ? all.filter((s) => args.includes(s.name)) : all;
  mkdirSync(OUT, { recursive: true });

  const table: string[][] = [];
  const record: Record<string, unknown> = { at: new Date().toISOString(), node: process.version, suites: {} };
  let crashed = 0;
  for (const suite of chosen) {
    const log = (m: string) => process.stdout.write(`[${suite.name}] ${m}\n`);
    log(`running: ${suite.description}`);
    const t0 = Date.now();
    let rows: BenchRow[];
    try {
      rows = await suite.run({ root: ROOT, outDir: OUT, log });
    } catch (err) {
      crashed++;
      const message = err instanceof Error ? err.message : String(err);
      process.stderr.write(
        `[${suite.name}] FAILED: ${err instanceof Error ? (err.stack ?? message) : message}\n`,
      );
      rows = [{ measure: 'suite failed', value: message.split('\n')[0] ?? message, pass: false }];
    }
    log(`done in ${seconds(Date.now() - t0)}`);
    (record.suites as Record<string, unknown>)[suite.name] = rows;
    for (const r of rows) {
      const result = r.pass === undefined ? '' : r.pass ? 'met' : 'MISSED';
      table.push([suite.name, r.measure, r.value, r.goal ?? '', result]);
    }
  }
  const file = path.join(OUT, `bench-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
  writeFileSync(file, JSON.stringify(record, null, 2) + '\n');
  process.stdout.write(`\n${formatTable(['suite', 'measure', 'value', 'goal', 'result'], table)}\n\n`);
  process.stdout.write(
    `Machine: ${os.cpus().length} cores, Node ${process.version}. Raw figures: ${path.relative(ROOT, file)}\n`,
  );
  return crashed ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(
      `bench crashed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`,
    );
    process.exit(1);
  },
);
