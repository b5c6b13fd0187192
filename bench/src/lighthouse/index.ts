import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadBenchTools } from '../lib/bench-tools.ts';
import { signInKey, startMailroom } from '../lib/servers.ts';
import { webDistEnv } from '../lib/web-build.ts';
import type { BenchContext, BenchRow, BenchSuite } from '../suite.ts';

const CHROME_PATH = process.env.CHROME_PATH ?? '/usr/bin/chromium';
const GOAL = 90;
const RUNS = Number(process.env.BENCH_LIGHTHOUSE_RUNS ?? 3);

interface Scores {
  performance: number;
  fcp: number;
  lcp: number;
  tbt: number;
  unusedJsKiB: number;
  /** JS and CSS fetched before the (observed, unthrottled) first contentful paint. */
  beforeFcp: AssetFigures;
  /** All JS and CSS of the load. */
  all: AssetFigures;
  /** Every request of the load (documents, scripts, stylesheets, API calls, images). */
  requests: number;
  /** The scripts fetched before the first contentful paint, and all of the load. */
  scriptsBeforeFcp: string[];
  scripts: string[];
}

interface AssetFigures {
  js: number;
  css: number;
  /** Bytes on the wire (brotli) and decoded, KiB. */
  transferKiB: number;
  resourceKiB: number;
}

interface NetworkItem {
  url: string;
  resourceType?: string;
  transferSize?: number;
  resourceSize?: number;
  networkEndTime?: number;
}

/**
 * Deterministic figures beside the noisy score: how many scripts and stylesheets, and how many
 * bytes, the page fetched in all and before its first contentful paint (observed timeline).
 */
function assetFigures(lhr: { audits: Record<string, { details?: unknown } | undefined> }): {
  beforeFcp: AssetFigures;
  all: AssetFigures;
  requests: number;
  scriptsBeforeFcp: string[];
  scripts: string[];
} {
  const net = lhr.audits['network-requests']?.details as
    { items: NetworkItem[]; debugData?: { networkStartTimeTs?: number } } | undefined;
  const metrics = lhr.audits.metrics?.details as
    { items: { observedFirstContentfulPaintTs?: number }[] } | undefined;
  const fcpTs = metrics?.items[0]?.observedFirstContentfulPaintTs ?? NaN;
  const startTs = net?.debugData?.networkStartTimeTs ?? NaN;
  const fcpMs = (fcpTs - startTs) / 1000;
  const assets = (net?.items ?? []).filter(
    (r) => r.resourceType === 'Script' || r.resourceType === 'Stylesheet',
  );
  const sum = (rs: NetworkItem[]): AssetFigures => ({
    js: rs.filter((r) => r.resourceType === 'Script').length,
    css: rs.filter((r) => r.resourceType === 'Stylesheet').length,
    transferKiB: rs.reduce((n, r) => n + (r.transferSize ?? 0), 0) / 1024,
    resourceKiB: rs.reduce((n, r) => n + (r.resourceSize ?? 0), 0) / 1024,
  });
  const early = assets.filter((r) => (r.networkEndTime ?? Infinity) <= fcpMs);
  return {
    all: sum(assets),
    beforeFcp: sum(early),
    requests: net?.items.length ?? 0,
    scriptsBeforeFcp: early.filter((r) => r.resourceType === 'Script').map((r) => r.url),
    scripts: assets.filter((r) => r.resourceType === 'Script').map((r) => r.url),
  };
}

const describeAssets = (a: AssetFigures) =>
  `${a.js} JS + ${a.css} CSS, ${a.transferKiB.toFixed(0)} KiB sent (${a.resourceKiB.toFixed(0)} KiB decoded)`;

/**
 * Whether zod (its schema classes, named in strings that minifying keeps) is in these scripts:
 * the first screen should not build the contract's schemas.
 */
async function holdsZod(urls: string[]): Promise<boolean> {
  for (const url of urls) {
    const text = await fetch(url).then((r) => r.text());
    if (/["']\$ZodType["']/.test(text)) return true;
  }
  return false;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/**
 * Lighthouse's performance score with its default settings (mobile emulation, simulated slow 4G
 * and 4× CPU slowdown) on /login and, signed in, on /dashboard. The median of a few runs.
 */
async function run(ctx: BenchContext): Promise<BenchRow[]> {
  const { lighthouse, puppeteer, chromeLauncher } = await loadBenchTools((m) => ctx.log(m));
  const server = await startMailroom(ctx.outDir, webDistEnv(ctx));
  const chrome = await chromeLauncher.launch({
    chromePath: CHROME_PATH,
    chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu', '--no-first-run'],
  });
  const rows: BenchRow[] = [];
  try {
    const key = await signInKey(server.baseURL);
    const browser = await puppeteer.connect({ browserURL: `http://127.0.0.1:${chrome.port}` });
    const page = (await browser.pages())[0] ?? (await browser.newPage());
    const audit = async (path: string, signedIn: boolean): Promise<Scores> => {
      // The console keeps its key in localStorage: set or clear it on the origin before each run.
      await page.goto(`${server.baseURL}/favicon.ico`).catch(() => undefined);
      await page.evaluate(
        (k: string | null) => {
          if (k) {
            localStorage.setItem('api_key', k);
            localStorage.setItem('user_email', 'bench@example.com');
          } else localStorage.clear();
        },
        signedIn ? key : null,
      );
      const result = await lighthouse(
        `${server.baseURL}${path}`,
        { port: chrome.port, onlyCategories: ['performance'], disableStorageReset: true, logLevel: 'error' },
        undefined,
        page,
      );
      const lhr = result?.lhr;
      if (!lhr) throw new Error(`lighthouse gave no result for ${path}`);
      // The last run's full report, to see what the score is made of (opportunities, diagnostics).
      writeFileSync(join(ctx.outDir, `lighthouse${path.replace(/\//g, '-')}.json`), JSON.stringify(lhr));
      const num = (id: string) => Number(lhr.audits[id]?.numericValue ?? NaN);
      const unused = lhr.audits['unused-javascript']?.details as { overallSavingsBytes?: number } | undefined;
      return {
        performance: Math.round((lhr.categories.performance?.score ?? 0) * 100),
        fcp: num('first-contentful-paint'),
        lcp: num('largest-contentful-paint'),
        tbt: num('total-blocking-time'),
        unusedJsKiB: (unused?.overallSavingsBytes ?? 0) / 1024,
        ...assetFigures(lhr),
      };
    };
    for (const [path, signedIn] of [
      ['/login', false],
      ['/dashboard', true],
    ] as const) {
      const runs: Scores[] = [];
      for (let i = 0; i < RUNS; i++) {
        const s = await audit(path, signedIn);
        ctx.log(
          `${path} run ${i + 1}: performance ${s.performance}, FCP ${(s.fcp / 1000).toFixed(2)} s, LCP ${(s.lcp / 1000).toFixed(2)} s, TBT ${s.tbt.toFixed(0)} ms`,
        );
        ctx.log(`  before first paint: ${describeAssets(s.beforeFcp)}; in all: ${describeAssets(s.all)}`);
        runs.push(s);
      }
      const score = median(runs.map((r) => r.performance));
      rows.push({
        measure: `Lighthouse performance (mobile defaults), ${path}`,
        value: `${score} (median of ${RUNS}; FCP ${(median(runs.map((r) => r.fcp)) / 1000).toFixed(2)} s, LCP ${(median(runs.map((r) => r.lcp)) / 1000).toFixed(2)} s, TBT ${median(runs.map((r) => r.tbt)).toFixed(0)} ms, unused JS ${median(runs.map((r) => r.unusedJsKiB)).toFixed(0)} KiB)`,
        goal: `≥ ${GOAL}`,
        pass: score >= GOAL,
        raw: { score, runs: RUNS },
      });
      // The first run's requests: later runs may find the hashed files in the browser's cache
      // (the storage is not reset, to keep the sign-in), which makes their bytes sent 0.
      const last = runs[0]!;
      const zod = await holdsZod(last.scriptsBeforeFcp);
      const zodInLoad = await holdsZod(last.scripts);
      rows.push({
        measure: `Scripts and stylesheets before first paint, ${path} (first run)`,
        value: `${describeAssets(last.beforeFcp)}${zod ? ', zod among them' : ', no zod'}; in all ${describeAssets(last.all)}${zodInLoad ? ' (with zod)' : ' (no zod)'}, ${last.requests} requests`,
        raw: {
          zodBeforeFcp: zod ? 1 : 0,
          zodInLoad: zodInLoad ? 1 : 0,
          requests: last.requests,
          jsBeforeFcp: last.beforeFcp.js,
          cssBeforeFcp: last.beforeFcp.css,
          kibBeforeFcp: Math.round(last.beforeFcp.transferKiB),
          jsAll: last.all.js,
          cssAll: last.all.css,
          kibAll: Math.round(last.all.transferKiB),
        },
      });
    }
    await browser.disconnect();
  } finally {
    chrome.kill();
    await server.stop();
  }
  return rows;
}

const suite: BenchSuite = {
  name: 'lighthouse',
  description:
    'Lighthouse performance score (default mobile settings, Debian Chromium) on /login and /dashboard',
  run,
};

export default suite;
