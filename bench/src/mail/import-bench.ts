import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import type { BenchContext, BenchRow } from '../suite.ts';
import { benchCluster } from './bench-db.ts';

export const IMPORT_ROWS = 100_000;
const GOALS = { sqlite: 200_000, postgres: 100_000 } as const;

/** source,destination rows over 20 domains, each pointing at one of 5,000 outside addresses. */
export function aliasCsv(rows: number): string {
  const lines = ['source,destination'];
  for (let i = 0; i < rows; i++)
    lines.push(`alias${i}@d${i % 20}.bench.test,user${i % 5000}@mail${i % 50}.bench.net`);
  return lines.join('\n') + '\n';
}

interface ChildResult {
  imported: number;
  errors: number;
  inTable: number;
  elapsedMs: number;
  cpuMs: number;
  baseRssKb: number;
  maxRssKb: number;
}

function runChild(root: string, args: string[]): Promise<ChildResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', path.join(root, 'bench/src/mail/import-child.ts'), ...args],
      {
        cwd: root,
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.on('exit', (code) => {
      if (code !== 0) return reject(new Error(`import child exited ${code}`));
      try {
        resolve(JSON.parse(out.trim().split('\n').pop()!) as ChildResult);
      } catch (err) {
        reject(err instanceof Error ? err : new Error(String(err)));
      }
    });
  });
}

/** 100k-row alias CSV through the import service (parse, validate, duplicate/loop checks, write). */
export async function importBench(ctx: BenchContext): Promise<BenchRow[]> {
  const csvFile = path.join(ctx.outDir, 'mail-aliases-100k.csv');
  writeFileSync(csvFile, aliasCsv(IMPORT_ROWS));
  const rows: BenchRow[] = [];
  const cluster = await benchCluster((m) => ctx.log(m));
  for (const dialect of ['sqlite', 'postgres'] as const) {
    if (dialect === 'postgres' && !cluster) {
      rows.push({ measure: 'alias CSV import 100k rows, PostgreSQL', value: 'skipped: no postgresql' });
      continue;
    }
    ctx.log(`alias import, ${IMPORT_ROWS} rows on ${dialect}`);
    const r = await runChild(ctx.root, [dialect, csvFile, ...(cluster ? [cluster.url] : [])]);
    if (r.imported !== IMPORT_ROWS || r.inTable !== IMPORT_ROWS) {
      throw new Error(`import wrote ${r.inTable} of ${IMPORT_ROWS} rows (${r.errors} errors)`);
    }
    const rate = IMPORT_ROWS / (r.elapsedMs / 1000);
    const name = dialect === 'sqlite' ? 'SQLite' : 'PostgreSQL';
    rows.push({
      measure: `alias CSV import 100k rows, ${name}`,
      value: `${Math.round(rate).toLocaleString('en-US')} rows/s (${(r.elapsedMs / 1000).toFixed(2)} s)`,
      goal: `≥ ${GOALS[dialect].toLocaleString('en-US')} rows/s`,
      pass: rate >= GOALS[dialect],
      raw: { rowsPerSecond: rate, elapsedMs: r.elapsedMs, cpuMs: r.cpuMs },
    });
    // Wall time depends on what else the machine runs; the importer's own CPU time does not.
    rows.push({
      measure: '  rate by the importer’s own CPU time',
      value: `${Math.round(IMPORT_ROWS / (r.cpuMs / 1000)).toLocaleString('en-US')} rows/s (${(r.cpuMs / 1000).toFixed(2)} s CPU${dialect === 'postgres' ? ', server excluded' : ''})`,
      raw: { cpuMs: r.cpuMs },
    });
    rows.push({
      measure: `  peak RSS of the importing process`,
      value: `${Math.round(r.maxRssKb / 1024)} MB (${Math.round(r.baseRssKb / 1024)} MB before)`,
      raw: { maxRssKb: r.maxRssKb, baseRssKb: r.baseRssKb },
    });
  }
  return rows;
}
