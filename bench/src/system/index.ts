import { createWriteStream, existsSync, mkdirSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AppDeps } from '../../../server/src/app-deps.ts';
import { MetricsCollector } from '../../../server/src/features/system/live/metrics-collector.service.ts';
import { readLogs } from '../../../server/src/features/system/logs/logs.service.ts';
import { Host } from '../../../server/src/host/host.ts';
import type { BenchRow, BenchSuite } from '../suite.ts';

const SAMPLES = 300;
const LOG_BYTES = 1024 ** 3;
const CPU_GOAL = 1; // percent of one core at 2 s sampling
const PAGE_GOAL_MS = 1000;

const quantile = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))] ?? NaN;
};

/** A 1 GiB mail log in the syslog format Postfix and Dovecot write, made once and kept in bench/out. */
async function makeLog(file: string, log: (m: string) => void): Promise<void> {
  if (existsSync(file) && statSync(file).size >= LOG_BYTES) return;
  log(`writing a 1 GiB mail log to ${file}`);
  mkdirSync(path.dirname(file), { recursive: true });
  const out = createWriteStream(file);
  let written = 0;
  let i = 0;
  const t0 = Date.UTC(2026, 0, 1);
  while (written < LOG_BYTES) {
    const lines: string[] = [];
    for (let k = 0; k < 5000; k++, i++) {
      const d = new Date(t0 + i * 37);
      const stamp = `${d.toUTCString().slice(8, 11)} ${String(d.getUTCDate()).padStart(2, ' ')} ${d.toISOString().slice(11, 19)}`;
      const id = (0x10000000 + i).toString(16).toUpperCase();
      // One line in 100 000 carries the rare word searched for below.
      const msg =
        i % 100_000 === 99_999
          ? `${id}: to=<needle${i}@example.net>, status=bounced (host said: 550 rare-marker)`
          : i % 97 === 0
            ? `warning: ${id}: connect to mx${i % 50}.example.net[192.0.2.${i % 250}]:25: Connection timed out`
            : i % 251 === 0
              ? `error: ${id}: lost connection with mx.example.org while receiving the initial greeting`
              : `${id}: to=<user${i % 10_000}@example.com>, relay=dovecot, delay=0.${i % 10}, status=sent (250 2.0.0 Ok)`;
      lines.push(`${stamp} mx postfix/smtp[${1000 + (i % 30_000)}]: ${msg}\n`);
    }
    const chunk = lines.join('');
    written += Buffer.byteLength(chunk);
    if (!out.write(chunk)) await new Promise<void>((r) => out.once('drain', () => r()));
  }
  await new Promise<void>((r, j) => out.end((err?: Error | null) => (err ? j(err) : r())));
}

/**
 * The metrics collector's CPU per sample (so its cost at 2 s sampling), and log pages from a 1 GiB
 * file: the newest page, pages at random depths, a level filter and a rare search term (a page
 * reads at most 64 MiB before answering with a cursor to continue).
 */
const suite: BenchSuite = {
  name: 'system',
  description:
    'metrics collector CPU at 2 s sampling; log page p99 in a 1 GiB log (paged, filtered, searched)',
  async run(ctx) {
    const rows: BenchRow[] = [];
    const collector = new MetricsCollector({ diskPath: ctx.outDir, idleMs: 3_600_000 });
    await collector.sample();
    const cpu0 = process.cpuUsage();
    const w0 = Date.now();
    for (let i = 0; i < SAMPLES; i++) await collector.sample();
    const used = process.cpuUsage(cpu0);
    const wall = Date.now() - w0;
    collector.close();
    const perSampleMs = (used.user + used.system) / 1000 / SAMPLES;
    const percent = (perSampleMs / 2000) * 100;
    rows.push({
      measure: 'collector CPU per sample',
      value: `${perSampleMs.toFixed(3)} ms`,
      raw: {
        perSampleMs,
        wallMsPerSample: wall / SAMPLES,
        processes: collector.latest()?.totalProcesses ?? 0,
      },
    });
    rows.push({
      measure: 'collector CPU at 2 s sampling',
      value: `${percent.toFixed(3)} % of one core`,
      goal: `< ${CPU_GOAL} %`,
      pass: percent < CPU_GOAL,
      raw: { percent, cores: os.cpus().length },
    });

    const root = path.join(ctx.outDir, 'system-bench', 'root');
    const file = path.join(root, 'var', 'log', 'mail.log');
    await makeLog(file, (m) => ctx.log(m));
    const size = statSync(file).size;
    const deps = {
      config: { hostRoot: root, dataDir: path.join(ctx.outDir, 'system-bench') },
      host: new Host(root, false),
    } as unknown as AppDeps;
    const time = async (q: Parameters<typeof readLogs>[1]) => {
      const t = performance.now();
      const r = await readLogs(deps, q);
      return { ms: performance.now() - t, n: r.entries.length, next: r.nextCursor };
    };
    const kinds: Record<string, () => Parameters<typeof readLogs>[1]> = {
      newest: () => ({ source: 'mail', limit: 50 }),
      'random depth': () => ({ source: 'mail', limit: 50, cursor: `f:${Math.floor(Math.random() * size)}` }),
      'level=error': () => ({
        source: 'mail',
        limit: 50,
        level: 'error',
        cursor: `f:${Math.floor(Math.random() * size)}`,
      }),
      'rare search': () => ({
        source: 'mail',
        limit: 50,
        search: 'rare-marker',
        cursor: `f:${Math.floor(Math.random() * size)}`,
      }),
    };
    const all: number[] = [];
    for (const [name, q] of Object.entries(kinds)) {
      await time(q()); // warm the page cache for this kind once
      const ms: number[] = [];
      let found = 0;
      for (let i = 0; i < 25; i++) {
        const r = await time(q());
        ms.push(r.ms);
        found += r.n;
      }
      all.push(...ms);
      rows.push({
        measure: `log page (${name}), p99`,
        value: `${quantile(ms, 0.99).toFixed(1)} ms`,
        raw: { p50: quantile(ms, 0.5), p99: quantile(ms, 0.99), entries: found / ms.length },
      });
    }
    const p99 = quantile(all, 0.99);
    rows.push({
      measure: 'log page p99 in a 1 GiB log (all kinds)',
      value: `${p99.toFixed(1)} ms`,
      goal: `< ${PAGE_GOAL_MS} ms`,
      pass: p99 < PAGE_GOAL_MS,
      raw: { p99, bytes: size },
    });
    return rows;
  },
};

export default suite;
