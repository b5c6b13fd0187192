import { gzipSync } from 'node:zlib';
import { type Browser, chromium, type Page } from '@playwright/test';
import { signInKey, startMailroom, BENCH_ADMIN } from '../lib/servers.ts';
import { ensureWebBuild } from '../lib/web-build.ts';
import type { BenchContext, BenchRow } from '../suite.ts';

const CHROMIUM = '/usr/bin/chromium';
const LOGIN_GOAL_KB = 150;

interface JsLoad {
  files: number;
  rawBytes: number;
  gzipBytes: number;
}

/** Loads a page in a fresh browser context and sums the JavaScript it fetched, gzipped (level 6, as Vite reports). */
async function jsLoadedBy(page: Page, url: string, ready: (p: Page) => Promise<void>): Promise<JsLoad> {
  const bodies: Promise<Buffer>[] = [];
  page.on('response', (res) => {
    const type = res.request().resourceType();
    const ct = res.headers()['content-type'] ?? '';
    if (res.ok() && (type === 'script' || ct.includes('javascript'))) bodies.push(res.body());
  });
  await page.goto(url);
  await ready(page);
  await page.waitForLoadState('networkidle');
  const all = await Promise.all(bodies);
  return {
    files: all.length,
    rawBytes: all.reduce((n, b) => n + b.length, 0),
    gzipBytes: all.reduce((n, b) => n + gzipSync(b, { level: 6 }).length, 0),
  };
}

const kb = (bytes: number) => bytes / 1024;
const describe = (j: JsLoad) =>
  `${kb(j.gzipBytes).toFixed(1)} kB gzip (${kb(j.rawBytes).toFixed(1)} kB raw, ${j.files} files)`;

/** The JavaScript a browser downloads for /login and for /dashboard (signed in), from the built app. */
export async function jsSize(ctx: BenchContext): Promise<BenchRow[]> {
  ensureWebBuild(ctx.root, (m) => ctx.log(m));
  const server = await startMailroom(ctx.outDir);
  let browser: Browser | null = null;
  try {
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu'] });
    const loginCtx = await browser.newContext();
    const login = await jsLoadedBy(await loginCtx.newPage(), `${server.baseURL}/login`, async (p) => {
      await p.getByRole('button', { name: 'Sign in' }).waitFor();
    });
    await loginCtx.close();

    const key = await signInKey(server.baseURL);
    const dashCtx = await browser.newContext();
    await dashCtx.addInitScript(
      (login: { key: string; email: string }) => {
        localStorage.setItem('api_key', login.key);
        localStorage.setItem('user_email', login.email);
      },
      { key, email: BENCH_ADMIN.email },
    );
    const dashboard = await jsLoadedBy(await dashCtx.newPage(), `${server.baseURL}/dashboard`, async (p) => {
      await p
        .getByRole('button', { name: /refresh/i })
        .first()
        .waitFor();
      if (!p.url().endsWith('/dashboard')) throw new Error(`/dashboard redirected to ${p.url()}`);
    });
    await dashCtx.close();

    return [
      {
        measure: 'JS loaded by /login',
        value: describe(login),
        goal: `≤ ${LOGIN_GOAL_KB} kB`,
        pass: kb(login.gzipBytes) <= LOGIN_GOAL_KB,
        raw: { ...login },
      },
      { measure: 'JS loaded by /dashboard (signed in)', value: describe(dashboard), raw: { ...dashboard } },
    ];
  } finally {
    await browser?.close();
    await server.stop();
  }
}
