import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { apiClient as api } from './api-client.ts';
import { axeCheck, expect, expectNoSideScroll, MOBILE, shot, signIn, test } from './fixtures.ts';

/**
 * Web applications (issue 20) through the real server: add (the field named by its message), the
 * list, deploy from a local git repository with the live log, stop/start, a second release and a
 * rollback to the first, delete. At 1280 and 390 px.
 */

interface AppRow {
  name: string;
  status: string;
  runningPort: number | null;
}
interface AppCapabilities {
  allowedRoots: string[];
}

const VIEWPORTS = [
  { name: 'desktop', size: { width: 1280, height: 800 } },
  { name: 'phone', size: MOBILE },
] as const;

/** A tiny Node app in a git repository of its own: `/` answers the body, `/health` 200. */
function makeRepository(body: string): { dir: string; commit: (next: string) => void } {
  const dir = mkdtempSync(path.join(tmpdir(), 'mailroom-e2e-app-'));
  const git = (...args: string[]) =>
    execFileSync('git', ['-c', 'user.email=e2e@example.com', '-c', 'user.name=e2e', ...args], { cwd: dir });
  const write = (text: string) =>
    writeFileSync(
      path.join(dir, 'server.js'),
      `const http = require('node:http');
http.createServer((req, res) => {
  if (req.url === '/health') { res.writeHead(200); res.end('ok'); return; }
  res.writeHead(200, { 'Content-Type': 'text/plain' });
  res.end(${JSON.stringify(text)} + ' ' + (process.env.E2E_MODE || ''));
}).listen(Number(process.env.PORT), '127.0.0.1');
`,
    );
  git('init', '-q', '-b', 'main');
  write(body);
  git('add', '.');
  git('commit', '-q', '-m', body);
  return {
    dir,
    commit: (next) => {
      write(next);
      git('commit', '-q', '-am', next);
    },
  };
}

/** The row of an application: a table row at 1280 px, a card at 390 px. */
const appRow = (page: Page, name: string) =>
  page
    .locator('tr, li')
    .filter({ has: page.getByText(name, { exact: true }) })
    .first();

/** The job the panel follows, from the URL (`?app=…&job=…`). */
const jobInUrl = (page: Page) => new URL(page.url()).searchParams.get('job');

/**
 * Waits for the end of the job the URL names, in the panel: its state under the log, once the panel's
 * heading names that job (until then the state shown may still be the previous job's).
 */
async function jobEnds(
  page: Page,
  state: 'succeeded' | 'failed',
  previous: string | null = null,
): Promise<void> {
  await expect.poll(() => jobInUrl(page), { timeout: 30_000 }).not.toBe(previous);
  const job = jobInUrl(page);
  await expect(page.getByText(`Deploy Log · job ${job}`, { exact: true })).toBeVisible({ timeout: 30_000 });
  await expect(page.getByTestId('deploy-log-state')).toHaveText(state, { timeout: 120_000 });
}

for (const vp of VIEWPORTS) {
  test.describe(`web applications at ${vp.size.width} px`, () => {
    test.use({ viewport: vp.size });

    test('add, list, deploy with the live log, stop/start, rollback and delete', async ({
      page,
      request,
    }) => {
      test.setTimeout(300_000);
      const key = await signIn(page);
      const a = api(request, key);
      const caps = await a.get<AppCapabilities>('web/capabilities/applications');
      const name = `e2e-${vp.name}`;
      const domain = `${name}.example.com`;
      const repo = makeRepository('release one');
      // What the running release answers, on the loopback port it was given (the e2e server runs no
      // Apache: the integration tests prove the same bodies through Apache, with zero failed requests).
      const served = async () => {
        const app = await a.get<AppRow>(`web/applications/${name}`);
        expect(app.runningPort, 'the running release’s port').not.toBeNull();
        return (await request.get(`http://127.0.0.1:${app.runningPort}/`)).text();
      };

      await page.goto('/web/applications');
      const crumbs = page.getByLabel('Breadcrumb');
      await expect(crumbs).toContainText('Web Management');
      await expect(crumbs).toContainText('Applications');
      await expect(page.getByPlaceholder('Search applications...')).toBeVisible();
      await expect(page.getByText('No web applications found').filter({ visible: true })).toBeVisible();

      // Add: Save waits for valid input; a bad value is named by its field's message.
      await page.getByRole('button', { name: 'Add Web Application' }).click();
      const dialog = page.getByRole('dialog', { name: 'Add Web Application' });
      const save = dialog.getByRole('button', { name: 'Save Web Application' });
      await expect(save).toBeDisabled();
      // Each deployable type says what the operator provides: a PHP type its database, what is kept.
      await dialog.getByRole('textbox', { name: /^Type/ }).click();
      await page.getByRole('option', { name: 'WordPress', exact: true }).click();
      const phpHelp = dialog.getByTestId('php-type-help');
      await expect(phpHelp).toContainText('You provide: A MySQL or MariaDB database and its user');
      await expect(phpHelp).toContainText('wp-content/uploads/');
      await phpHelp.scrollIntoViewIfNeeded();
      if (vp.name === 'phone') await expectNoSideScroll(page);
      await shot(page, `web-app-form-wordpress-${vp.name}`);
      await dialog.getByRole('textbox', { name: /^Type/ }).click();
      await page.getByRole('option', { name: 'Python', exact: true }).click();
      await expect(dialog.getByText(/a requirements\.txt is not installed by itself/)).toBeVisible();
      await shot(page, `web-app-form-python-${vp.name}`);
      await dialog.getByRole('textbox', { name: /^Type/ }).click();
      await page.getByRole('option', { name: 'Node.js', exact: true }).click();
      await expect(dialog.getByRole('textbox', { name: /^Type/ })).toHaveValue('Node.js');
      await dialog.getByRole('textbox', { name: /^Domain/ }).fill('bare');
      await dialog.getByRole('textbox', { name: /^Version/ }).focus();
      await expect(dialog.getByText('Domain format is invalid')).toBeVisible();
      await dialog.getByRole('textbox', { name: /^Domain/ }).fill(domain);
      await dialog.getByRole('textbox', { name: /^Name/ }).fill(name);
      await dialog.getByRole('textbox', { name: /^Version/ }).fill('1.0.0');
      await dialog.getByRole('textbox', { name: /^Repository/ }).fill(repo.dir);
      await dialog.getByRole('textbox', { name: /^Deployment Path/ }).fill(`${caps.allowedRoots[0]}/${name}`);
      await dialog.getByRole('textbox', { name: /^Start Command/ }).fill('node server.js');
      await dialog.getByRole('textbox', { name: /^Environment Variables/ }).fill('E2E_MODE=first');
      // The spec's defaults underneath.
      await expect(dialog.getByRole('textbox', { name: /^Port/ })).toHaveValue('3000');
      await expect(dialog.getByRole('textbox', { name: /^Branch/ })).toHaveValue('main');
      await expect(dialog.getByRole('textbox', { name: /^Health Check Path/ })).toHaveValue('/health');
      // A branch a shell would run is refused at its field.
      await dialog.getByRole('textbox', { name: /^Branch/ }).fill('main;touch /tmp/x');
      await expect(dialog.getByText('Branch format is invalid')).toBeVisible();
      await expect(save).toBeDisabled();
      await dialog.getByRole('textbox', { name: /^Branch/ }).fill('main');
      if (vp.name === 'phone') await expectNoSideScroll(page);
      await shot(page, `web-app-form-${vp.name}`);
      await save.click();
      await expect(dialog).toBeHidden({ timeout: 30_000 });
      await expect(page.getByText('Web application saved successfully!').first()).toBeVisible();

      // The list: the server's row.
      const row = appRow(page, name);
      await expect(row).toBeVisible();
      await expect(row).toContainText(domain);
      await expect(row).toContainText('Node.js');

      // Deploy from the row: the panel follows the job's log live, then the app is active.
      await row.getByRole('button', { name: `Deploy ${name}` }).click();
      const log = page.getByRole('log', { name: 'Deploy log' });
      await expect(log).not.toContainText('No lines yet.', { timeout: 30_000 });
      await expect(page).toHaveURL(/[?&]app=e2e-[a-z]+&job=\d+/);
      // A reload in the middle resumes the same job's log from its first line.
      await page.reload();
      await expect(log.locator('[data-seq="1"]')).toBeVisible({ timeout: 30_000 });
      await jobEnds(page, 'succeeded');
      const seqs = await log
        .locator('[data-seq]')
        .evaluateAll((els) => els.map((e) => Number(e.getAttribute('data-seq'))));
      expect(seqs).toEqual(seqs.map((_, i) => i + 1)); // every line once, in order
      await page.keyboard.press('Escape');
      await expect(row).toContainText('Active', { timeout: 30_000 });
      expect(await served()).toBe('release one first');

      // Stop (title Stop while active), then Start.
      const stop = row.getByRole('button', { name: `Stop ${name}` });
      await expect(stop).toHaveAttribute('title', 'Stop');
      await stop.click();
      await expect(row).toContainText('Inactive', { timeout: 30_000 });
      await expect(row.getByRole('button', { name: `Start ${name}` })).toHaveAttribute('title', 'Start');
      await row.getByRole('button', { name: `Start ${name}` }).click();
      await expect(row).toContainText('Active', { timeout: 30_000 });

      // A second release with another environment value, then a rollback to the first.
      repo.commit('release two');
      await row.getByRole('button', { name: `Edit ${name}` }).click();
      const edit = page.getByRole('dialog', { name: 'Edit Web Application' });
      await expect(edit.getByRole('textbox', { name: /^Environment Variables/ })).toHaveValue(
        'E2E_MODE=first',
      );
      await edit.getByRole('textbox', { name: /^Environment Variables/ }).fill('E2E_MODE=second');
      await edit.getByRole('button', { name: 'Save Web Application' }).click();
      await expect(edit).toBeHidden({ timeout: 30_000 });
      const firstDeploy = jobInUrl(page);
      await row.getByRole('button', { name: `Deploy ${name}` }).click();
      await jobEnds(page, 'succeeded', firstDeploy);
      expect(await served()).toBe('release two second');
      const releases = page.getByRole('table', { name: `Releases of ${name}` });
      await expect(releases.locator('[data-release]')).toHaveCount(2, { timeout: 30_000 });
      await releases.getByRole('button', { name: 'Rollback to release 1' }).click();
      const confirm = page.getByRole('dialog', { name: 'Rollback' });
      await expect(confirm).toContainText('Run release #1');
      const deployJob = jobInUrl(page);
      await confirm.getByRole('button', { name: 'Rollback' }).click();
      // The panel follows the rollback's own job (not the deploy's, which ended already).
      await jobEnds(page, 'succeeded', deployJob);
      expect(await served()).toBe('release one first');
      if (vp.name === 'phone') await expectNoSideScroll(page);
      await shot(page, `web-app-panel-${vp.name}`);

      // The stored build log of a release, read-only, from its row of the releases table.
      await releases.getByRole('button', { name: 'Build log of release 2' }).click();
      const buildLog = page.getByRole('dialog', { name: 'Build log of release #2' });
      const buildLines = buildLog.getByRole('log', { name: 'Build log of release 2' });
      await expect(buildLines).toContainText(`Fetching ${repo.dir} at main`, { timeout: 30_000 });
      await expect(buildLines).toContainText('Deployed release 2');
      await expect(buildLines.locator('[data-seq="1"]')).toBeVisible();
      if (vp.name === 'phone') await expectNoSideScroll(page);
      await shot(page, `web-app-build-log-${vp.name}`);
      await page.keyboard.press('Escape');
      await expect(buildLog).toBeHidden();
      await expect(releases).toBeVisible();
      await page.keyboard.press('Escape');
      // The panel slides out first: axe on its fading title would read a contrast of 1.1.
      await expect(page.getByRole('dialog')).toHaveCount(0);
      if (vp.name === 'desktop') await axeCheck(page, '/web/applications');
      await shot(page, `web-applications-${vp.name}`);

      // The dashboard's card counts it and lists it.
      await page.goto('/web');
      const card = page.locator('section[aria-labelledby="web-apps-title"]');
      await expect(card.getByTestId('web-apps-counts')).toContainText('1 total');
      await expect(card).toContainText(name);
      await page.goBack();

      // Delete, in the spec's words, keeping the release folders.
      await appRow(page, name)
        .getByRole('button', { name: `Delete ${name}` })
        .click();
      const del = page.getByRole('dialog', { name: 'Delete Web Application' });
      await expect(del).toContainText(`Are you sure you want to delete the application "${name}"?`);
      await del.getByRole('button', { name: 'Delete', exact: true }).click();
      await expect(page.getByText(`The application ${name} was deleted.`, { exact: false })).toBeVisible({
        timeout: 30_000,
      });
      await expect(appRow(page, name)).toHaveCount(0);
      expect((await a.get<AppRow[]>(`web/applications?q=${name}`)).length).toBe(0);
    });
  });
}
