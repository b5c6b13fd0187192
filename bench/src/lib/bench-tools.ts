import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

// Lighthouse, puppeteer-core and chrome-launcher are about a hundred packages that only the
// Lighthouse bench uses (and they want Node 22: warnings on every install). They live in
// bench/tools with their own lock and are installed the first time that bench runs, never by
// `npm start`. The types below are the few members the bench calls.

export interface LighthouseResult {
  lhr: {
    audits: Record<string, { numericValue?: number; details?: unknown } | undefined>;
    categories: Record<string, { score: number | null } | undefined>;
  };
}
export type Lighthouse = (
  url: string,
  flags: Record<string, unknown>,
  config: undefined,
  page: unknown,
) => Promise<LighthouseResult | undefined>;

export interface PuppeteerPage {
  goto(url: string): Promise<unknown>;
  evaluate<A>(fn: (arg: A) => void, arg: A): Promise<unknown>;
}
export interface PuppeteerBrowser {
  pages(): Promise<PuppeteerPage[]>;
  newPage(): Promise<PuppeteerPage>;
  disconnect(): Promise<void>;
}
export interface Puppeteer {
  connect: (opts: { browserURL: string }) => Promise<PuppeteerBrowser>;
}
export interface ChromeLauncher {
  launch: (opts: { chromePath: string; chromeFlags: string[] }) => Promise<{ port: number; kill(): void }>;
}

export interface BenchTools {
  lighthouse: Lighthouse;
  puppeteer: Puppeteer;
  chromeLauncher: ChromeLauncher;
}

const TOOLS = path.resolve(import.meta.dirname, '../../tools');

/** Installs bench/tools from its lock when it is missing, then loads the three packages. */
export async function loadBenchTools(log: (m: string) => void): Promise<BenchTools> {
  if (!existsSync(path.join(TOOLS, 'node_modules', 'lighthouse', 'package.json'))) {
    log('installing the Lighthouse bench tools into bench/tools (first run only)');
    const r = spawnSync('npm', ['ci', '--no-audit', '--no-fund'], { cwd: TOOLS, stdio: 'inherit' });
    if (r.status !== 0) throw new Error(`npm ci in ${TOOLS} failed (exit ${r.status})`);
  }
  const require = createRequire(path.join(TOOLS, 'package.json'));
  const load = async (name: string) =>
    (await import(pathToFileURL(require.resolve(name)).href)) as Record<string, unknown>;
  const [lh, pp, cl] = await Promise.all([
    load('lighthouse'),
    load('puppeteer-core'),
    load('chrome-launcher'),
  ]);
  return {
    lighthouse: lh.default as Lighthouse,
    puppeteer: pp.default as Puppeteer,
    chromeLauncher: cl as unknown as ChromeLauncher,
  };
}
