import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { type Browser, chromium } from '@playwright/test';
import { BENCH_ADMIN, signInKey, startMailroom } from '../lib/servers.ts';
import { ensureWebBuild } from '../lib/web-build.ts';
import type { BenchRow, BenchSuite } from '../suite.ts';

const CHROMIUM = '/usr/bin/chromium';
const ROWS = 1000;
const LONG_TASK_GOAL_MS = 100;

interface TraceEvent {
  name: string;
  ph: string;
  tid: number;
  pid: number;
  dur?: number;
  args?: { name?: string };
}

/** Top-level task events of the renderer's main thread (the name varies across Chromium versions). */
const TASK_EVENTS = new Set(['RunTask', 'ThreadControllerImpl::RunTask']);

/** The renderer main thread's tasks (RunTask, µs → ms) in a Chromium trace, longest first. */
function mainThreadTasks(trace: { traceEvents: TraceEvent[] }): number[] {
  const main = new Set(
    trace.traceEvents
      .filter((e) => e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain')
      .map((e) => `${e.pid}:${e.tid}`),
  );
  return trace.traceEvents
    .filter((e) => TASK_EVENTS.has(e.name) && e.ph === 'X' && main.has(`${e.pid}:${e.tid}`))
    .map((e) => (e.dur ?? 0) / 1000)
    .sort((a, b) => b - a);
}

async function api(baseURL: string, key: string, method: string, p: string, body?: string, type?: string) {
  const res = await fetch(`${baseURL}/api/${p}`, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(type ? { 'content-type': type } : {}) },
    ...(body !== undefined ? { body } : {}),
  });
  if (!res.ok) throw new Error(`${method} ${p}: ${res.status} ${await res.text()}`);
  return res.json() as Promise<Record<string, unknown>>;
}

/**
 * The shared data table (web/src/components/data-table) rendering 1,000 rows: Mail → Domains with
 * 1,000 mail domains, reached by a client-side navigation while Chromium records a performance
 * trace. The figure is the longest main-thread task (a long task blocks input); the goal is that
 * none exceeds 100 ms.
 */
const suite: BenchSuite = {
  name: 'tables',
  description: 'Shared data table: 1,000 rows rendered, longest main-thread task (Chromium trace)',
  async run(ctx): Promise<BenchRow[]> {
    if (!existsSync(CHROMIUM)) {
      ctx.log('!!! /usr/bin/chromium is missing (Debian package: chromium): table bench SKIPPED !!!');
      return [{ measure: 'Data table, 1,000 rows', value: 'skipped: no chromium' }];
    }
    ensureWebBuild(ctx.root, (m) => ctx.log(m));
    const server = await startMailroom(ctx.outDir);
    let browser: Browser | null = null;
    try {
      const key = await signInKey(server.baseURL);
      // No DKIM keys for 1,000 throwaway domains (each is a 2048-bit RSA key).
      const current = (await api(server.baseURL, key, 'GET', 'mail/settings')) as {
        settings: Record<string, unknown>;
        version: number;
      };
      await api(
        server.baseURL,
        key,
        'POST',
        'mail/settings',
        JSON.stringify({ settings: { ...current.settings, enableDKIM: false }, version: current.version }),
        'application/json',
      );
      const csv = ['source,destination'];
      for (let i = 0; i < ROWS; i++)
        csv.push(`info@d${String(i).padStart(4, '0')}.bench.test,owner@example.org`);
      const imported = await api(
        server.baseURL,
        key,
        'POST',
        'mail/aliases/import?createDomains=1',
        csv.join('\n'),
        'text/csv',
      );
      ctx.log(`imported ${String(imported.imported)} aliases into ${ROWS} new domains`);

      browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu'] });
      const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
      await context.addInitScript(
        (login: { key: string; email: string }) => {
          localStorage.setItem('api_key', login.key);
          localStorage.setItem('user_email', login.email);
        },
        { key, email: BENCH_ADMIN.email },
      );
      const page = await context.newPage();
      await page.goto(`${server.baseURL}/mail/mailboxes`);
      await page.getByRole('heading', { level: 1, name: 'Mailboxes' }).waitFor();
      await page.waitForLoadState('networkidle');
      const traceFile = path.join(ctx.outDir, 'tables-trace.json');
      await browser.startTracing(page, { path: traceFile, categories: ['devtools.timeline', 'toplevel'] });
      const t0 = Date.now();
      await page.getByRole('link', { name: 'Domains', exact: true }).click();
      const rows = page.getByRole('table', { name: 'Mail domains' }).locator('tbody tr');
      await page.waitForFunction(
        (n) => document.querySelectorAll('table[aria-label="Mail domains"] tbody tr').length >= n,
        ROWS,
        { timeout: 60_000 },
      );
      const shownMs = Date.now() - t0;
      await page.waitForTimeout(300);
      await browser.stopTracing();
      const count = await rows.count();
      const tasks = mainThreadTasks(
        JSON.parse(readFileSync(traceFile, 'utf8')) as { traceEvents: TraceEvent[] },
      );
      const longest = tasks[0] ?? 0;
      const over50 = tasks.filter((d) => d > 50).length;
      const out: BenchRow[] = [
        {
          measure: `Data table: ${count} rows shown after navigation`,
          value: `${shownMs} ms`,
          raw: { rows: count, shownMs },
        },
        {
          measure: 'Data table, 1,000 rows: longest main-thread task',
          value: `${longest.toFixed(1)} ms (${over50} tasks > 50 ms)`,
          goal: `≤ ${LONG_TASK_GOAL_MS} ms`,
          pass: count >= ROWS && longest <= LONG_TASK_GOAL_MS,
          raw: { longestMs: longest, over50, tasks: tasks.length },
        },
      ];
      return out;
    } finally {
      await browser?.close();
      await server.stop();
    }
  },
};

export default suite;
