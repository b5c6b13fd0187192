import { mkdirSync } from 'node:fs';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { test as base, expect, type Page } from '@playwright/test';
import { Secret, TOTP } from 'otpauth';
import pg from 'pg';
import { type Cluster, startCluster } from '../server/test/postgres-cluster.ts';
import { SCREENSHOT_DIR, SERVER_LOG_DIR } from './paths.ts';
import { startServer } from './server-process.ts';

export { expect };

/** The administrator every e2e server is created with. */
export const ADMIN = { email: 'admin@example.com', password: 'admin-password-1' };

export interface E2eServer {
  baseURL: string;
  dataDir: string;
  /** Set when the run uses PostgreSQL (MAILROOM_E2E_DATABASE=postgres). */
  dbUrl?: string;
}

async function postgresDatabase(workerIndex: number): Promise<{ cluster: Cluster; url: string }> {
  const cluster = await startCluster();
  const client = new pg.Client({ connectionString: cluster.url });
  await client.connect();
  await client.query(`CREATE DATABASE e2e_${workerIndex}`);
  await client.end();
  return { cluster, url: cluster.url.replace(/\/postgres$/, `/e2e_${workerIndex}`) };
}

/**
 * The e2e server runs its real alert engine on this machine, which a full parallel run keeps busy:
 * a genuine "High CPU usage" alert would reach the bell and the toasts of specs that expect none.
 * CPU and memory thresholds at 100 % keep host-load alerts out of the screens under test (the
 * alert specs set their own thresholds); signed out again so no extra session stays behind.
 */
async function quietHostAlerts(baseURL: string): Promise<void> {
  const call = async (path: string, init: RequestInit): Promise<Response> => {
    const res = await fetch(`${baseURL}${path}`, {
      ...init,
      headers: { 'Content-Type': 'application/json', ...init.headers },
    });
    if (!res.ok) throw new Error(`${path} answered ${res.status}: ${await res.text()}`);
    return res;
  };
  const login = await call('/auth/login', { method: 'POST', body: JSON.stringify(ADMIN) });
  const { api_key: key } = (await login.json()) as { api_key: string };
  const auth = { Authorization: `Bearer ${key}` };
  const values = { cpuWarning: '100', cpuCritical: '100', memoryWarning: '100', memoryCritical: '100' };
  await call('/api/system/settings/values', {
    method: 'PUT',
    headers: auth,
    body: JSON.stringify({ values }),
  });
  await call('/auth/logout', { method: 'POST', headers: auth, body: '{}' });
}

export const test = base.extend<{ failOnPageErrors: void }, { server: E2eServer }>({
  server: [
    // eslint-disable-next-line no-empty-pattern -- Playwright requires the object pattern
    async ({}, use, workerInfo) => {
      const pgRun =
        process.env.MAILROOM_E2E_DATABASE === 'postgres'
          ? await postgresDatabase(workerInfo.workerIndex)
          : null;
      const server = await startServer({
        adminEmail: ADMIN.email,
        adminPassword: ADMIN.password,
        ...(pgRun ? { databaseUrl: pgRun.url } : {}),
        logFile: path.join(SERVER_LOG_DIR, `worker-${workerInfo.workerIndex}.log`),
      });
      try {
        await quietHostAlerts(server.baseURL);
        await use({
          baseURL: server.baseURL,
          dataDir: server.dataDir,
          ...(pgRun ? { dbUrl: pgRun.url } : {}),
        });
      } finally {
        await server.stop();
        await pgRun?.cluster.stop();
      }
    },
    { scope: 'worker', timeout: 120_000 },
  ],
  baseURL: async ({ server }, use) => use(server.baseURL),
  // An uncaught exception in the page is a bug even when the screen looks right.
  failOnPageErrors: [
    async ({ page }, use) => {
      const errors: string[] = [];
      page.on('pageerror', (err) => errors.push(err.stack ?? err.message));
      await use();
      expect(errors, 'uncaught errors in the page').toEqual([]);
    },
    { auto: true },
  ],
});

/** The phone viewport the specs check the screens at. */
export const MOBILE = { width: 390, height: 844 };

export interface Credentials {
  email: string;
  password: string;
}

/** The /login form's first step: email and password, then Sign in (where it leads is the caller's). */
export async function passwordStep(page: Page, who: Credentials): Promise<void> {
  await page.goto('/login');
  await page.getByLabel('Email address').fill(who.email);
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill(who.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/** Forgets this browser's session (the stored key and the cookies), as a new visitor. */
export async function signOutHere(page: Page): Promise<void> {
  await page.evaluate(() => localStorage.clear());
  await page.context().clearCookies();
}

/** Signs in through the /login form and answers the session key the app stored. */
export async function signIn(page: Page, who: Credentials = ADMIN): Promise<string> {
  await passwordStep(page, who);
  await page.waitForURL('**/dashboard');
  // The shell is loaded on demand: wait for it, so its keyboard shortcuts are listening.
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
  const key = await page.evaluate(() => localStorage.getItem('api_key'));
  expect(key, 'the api key stored after sign-in').toBeTruthy();
  return key!;
}

/** Full-page screenshot saved as e2e/test-output/screenshots/<name>.png. */
export async function shot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await page.screenshot({
    path: path.join(SCREENSHOT_DIR, `${name}.png`),
    fullPage: true,
    animations: 'disabled',
  });
}

/** Runs axe-core on the current page and fails on any serious or critical violation. */
export async function axeCheck(page: Page, label = page.url()): Promise<void> {
  // @axe-core/playwright is typed against a newer playwright-core; the runtime API it uses is the same.
  const axePage = page as unknown as ConstructorParameters<typeof AxeBuilder>[0]['page'];
  // Colours half-way through a fade (a closing dialog, a toast) are not what anyone reads.
  const settled = () =>
    page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running'));
  await settled();
  let results = await new AxeBuilder({ page: axePage }).analyze();
  // A toast that arrives while axe runs is read half faded in: what is still wrong once the
  // animations have ended again is what counts.
  if (results.violations.some((v) => v.impact === 'serious' || v.impact === 'critical')) {
    await settled();
    results = await new AxeBuilder({ page: axePage }).analyze();
  }
  const severe = results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => {
      const where = v.nodes
        .slice(0, 5)
        .map((n) => `${n.target.join(' ')}${n.any[0]?.message ? ` — ${n.any[0].message}` : ''}`)
        .join('\n      ');
      return `${v.impact} ${v.id}: ${v.help} (${v.nodes.length} nodes)\n      ${where}`;
    });
  expect(severe, `axe: serious or critical violations on ${label}`).toEqual([]);
}

/** At phone width nothing may stick out sideways; names the culprits when something does. */
export async function expectNoSideScroll(page: Page): Promise<void> {
  const overflow = () =>
    page.evaluate(() => {
      if (document.documentElement.scrollWidth <= window.innerWidth) return [];
      return Array.from(document.querySelectorAll('body *'))
        .filter((el) => el.getBoundingClientRect().right > window.innerWidth + 1)
        .slice(0, 8)
        .map(
          (el) =>
            `${el.tagName.toLowerCase()}.${Array.from(el.classList).join('.')} → ${Math.round(el.getBoundingClientRect().right)}px`,
        );
    });
  // Polled: toasts slide in from the right edge and the shell's menu animates after a resize.
  await expect.poll(overflow, { message: 'elements wider than the 390px screen' }).toEqual([]);
}

/** The code an authenticator app would show `offsetSteps` steps (of 30 s) from now. */
export function totpCode(secret: string, offsetSteps = 0): string {
  return new TOTP({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30 }).generate({
    timestamp: Date.now() + offsetSteps * 30_000,
  });
}
