import type { Page } from '@playwright/test';
import { apiClient as api } from './api-client.ts';
import { axeCheck, expect, expectNoSideScroll, MOBILE, shot, signIn, test } from './fixtures.ts';

interface VhostRow {
  domain: string;
  status: string;
  documentRoot: string;
  serverAlias: string[];
  enableGzip: boolean;
  cacheExpiry: number;
}
interface Capabilities {
  allowedRoots: string[];
  apacheInstalled: boolean;
}
interface Settings {
  timeout: number;
  keepAliveTimeout: number;
  phpMaxInputTime: number;
}

const VIEWPORTS = [
  { name: 'desktop', size: { width: 1280, height: 800 } },
  { name: 'phone', size: MOBILE },
] as const;

/** Answers once the modal's save came back: closed (saved) or still open with the server's words. */
async function saveHost(page: Page): Promise<void> {
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('button', { name: 'Save Virtual Host' }).click();
  // The server checks the files with Apache, reloads and probes before answering.
  await expect(dialog).toBeHidden({ timeout: 30_000 });
}

/** The row of a host: a table row at 1280 px, a card at 390 px. */
const hostRow = (page: Page, domain: string) =>
  page
    .locator('tr, li')
    .filter({ has: page.getByText(domain, { exact: true }) })
    .first();

for (const vp of VIEWPORTS) {
  test.describe(`web hosting at ${vp.size.width} px`, () => {
    test.use({ viewport: vp.size });

    test('virtual hosts: add, edit, toggle and delete through the real API', async ({ page, request }) => {
      test.setTimeout(120_000);
      const key = await signIn(page);
      const a = api(request, key);
      const caps = await a.get<Capabilities>('web/capabilities');
      const root = caps.allowedRoots[0]!;
      const domain = `e2e-${vp.name}.example.com`;

      await page.goto('/web/vhosts');
      const crumbs = page.getByLabel('Breadcrumb');
      await expect(crumbs).toContainText('Web Management');
      await expect(crumbs).toContainText('Virtual Hosts');
      await expect(page.getByPlaceholder('Search virtual hosts...')).toBeVisible();
      await expect(page.getByText('No virtual hosts found').filter({ visible: true })).toBeVisible();

      // Add, with the spec's defaults underneath.
      await page.getByRole('button', { name: 'Add Virtual Host' }).click();
      const dialog = page.getByRole('dialog', { name: 'Add Virtual Host' });
      await expect(dialog.getByRole('button', { name: 'Save Virtual Host' })).toBeDisabled();
      await dialog.getByRole('textbox', { name: /^Domain/ }).fill('bare');
      await dialog.getByRole('textbox', { name: /^Server Name/ }).focus();
      await expect(dialog.getByText('Domain format is invalid')).toBeVisible();
      await dialog.getByRole('textbox', { name: /^Domain/ }).fill(domain);
      await dialog.getByRole('textbox', { name: /^Server Name/ }).fill(domain);
      await dialog.getByRole('textbox', { name: /^Server Aliases/ }).fill(`www.${domain}`);
      await dialog.getByRole('textbox', { name: /^Document Root/ }).fill(`${root}/${domain}`);
      await expect(dialog.getByRole('textbox', { name: /^Port/ })).toHaveValue('80');
      await expect(dialog.getByRole('textbox', { name: /^Cache Expiry/ })).toHaveValue('3600');
      if (vp.name === 'phone') await expectNoSideScroll(page);
      await shot(page, `web-vhost-form-${vp.name}`);
      await saveHost(page);
      await expect(page.getByText('Virtual host saved successfully!').first()).toBeVisible();
      const row = hostRow(page, domain);
      await expect(row).toBeVisible();
      await expect(row).toContainText(`www.${domain}`);
      await expect(row).toContainText('Active');
      let stored = (await a.get<VhostRow[]>(`web/vhosts?q=${domain}`)).find((v) => v.domain === domain);
      expect(stored?.serverAlias).toEqual([`www.${domain}`]);
      expect(stored?.documentRoot).toBe(`${root}/${domain}`);

      // A custom directive Mailroom refuses is named at its field (the line), nothing saved.
      await row.getByRole('button', { name: `Edit ${domain}` }).click();
      const edit = page.getByRole('dialog', { name: 'Edit Virtual Host' });
      await expect(edit.getByRole('textbox', { name: /^Domain/ })).toHaveValue(domain);
      await edit
        .getByRole('textbox', { name: /^Custom Directives/ })
        .fill('Header set X-E2E "1"\nInclude /etc/passwd');
      await edit.getByRole('button', { name: 'Save Virtual Host' }).click();
      await expect(edit.getByText(/^Line 2: /)).toBeVisible({ timeout: 30_000 });
      await expect(page.getByText(/^Line 2: /)).toHaveCount(1);

      // A directive Apache itself refuses (apache2 -t): Apache's words at the field, with the line.
      if (caps.apacheInstalled) {
        await edit
          .getByRole('textbox', { name: /^Custom Directives/ })
          .fill('Header set X-E2E "1"\nNoSuchDirectiveE2e on');
        await edit.getByRole('button', { name: 'Save Virtual Host' }).click();
        const refusal = edit.getByText(/Custom Directives line 2: .*NoSuchDirectiveE2e/);
        await expect(refusal).toBeVisible({ timeout: 30_000 });
        // Said once, at the field: no toast or alert repeats it.
        await expect(page.getByText(/Custom Directives line 2:/)).toHaveCount(1);
      } else {
        test.info().annotations.push({
          type: 'skipped step',
          description: "apache2 missing: Apache's own check not driven",
        });
      }

      // Edit: caching expiry and gzip, then saved for real.
      await edit.getByRole('textbox', { name: /^Custom Directives/ }).fill('');
      // The switch's input is drawn over by its track: click its label, as a person does.
      await edit.getByText('Enable Gzip', { exact: true }).click();
      await expect(edit.getByRole('switch', { name: /^Enable Gzip/ })).not.toBeChecked();
      await edit.getByRole('textbox', { name: /^Cache Expiry/ }).fill('600');
      await saveHost(page);
      stored = (await a.get<VhostRow[]>(`web/vhosts?q=${domain}`)).find((v) => v.domain === domain);
      expect(stored?.enableGzip).toBe(false);
      expect(stored?.cacheExpiry).toBe(600);

      // Toggle: Disable, then Enable again.
      await row.getByRole('button', { name: `Disable ${domain}` }).click();
      await expect(row).toContainText('Inactive', { timeout: 30_000 });
      await expect
        .poll(async () => (await a.get<VhostRow[]>(`web/vhosts?q=${domain}`))[0]?.status)
        .toBe('inactive');
      // The status filter asks the server: the inactive host is not Active, it is Inactive.
      const filter = page.getByRole('textbox', { name: 'Filter by status' });
      const pick = async (label: string) => {
        await filter.click();
        await page.getByRole('option', { name: label, exact: true }).click();
      };
      await pick('Active');
      await expect(page.getByText('No virtual hosts found').filter({ visible: true })).toBeVisible();
      await pick('Inactive');
      await expect(row).toContainText('Inactive');
      await pick('All Status');
      await row.getByRole('button', { name: `Enable ${domain}` }).click();
      await expect(row).toContainText('Active', { timeout: 30_000 });
      await expect(row.getByRole('button', { name: `Disable ${domain}` })).toBeVisible();

      if (vp.name === 'phone') await expectNoSideScroll(page);
      await shot(page, `web-vhosts-${vp.name}`);
      if (vp.name === 'desktop') await axeCheck(page, '/web/vhosts');

      // Delete, keeping the files.
      await row.getByRole('button', { name: `Delete ${domain}` }).click();
      const confirm = page.getByRole('dialog', { name: 'Delete Virtual Host' });
      await expect(confirm).toContainText(`Are you sure you want to delete the virtual host "${domain}"?`);
      await expect(confirm.getByRole('checkbox', { name: "Keep the site's files" })).toBeChecked();
      await confirm.getByRole('button', { name: 'Delete', exact: true }).click();
      await expect(page.getByText(`Its files are kept in ${root}/${domain}.`)).toBeVisible({
        timeout: 30_000,
      });
      await expect(hostRow(page, domain)).toHaveCount(0);
      expect((await a.get<VhostRow[]>(`web/vhosts?q=${domain}`)).length).toBe(0);
    });

    test('the server-wide PHP limits: the Add form starts from them and refuses more at the field', async ({
      page,
      request,
    }) => {
      test.setTimeout(120_000);
      const key = await signIn(page);
      const a = api(request, key);
      const before = await a.get<Record<string, unknown>>('web/settings');
      await a.post('web/settings', { ...before, phpMemoryLimit: '256M', phpMaxExecutionTime: 60 });
      try {
        await page.goto('/web/vhosts');
        await page.getByRole('button', { name: 'Add Virtual Host' }).click();
        const dialog = page.getByRole('dialog', { name: 'Add Virtual Host' });
        const memory = dialog.getByRole('textbox', { name: /^PHP Memory Limit/ });
        await expect(memory).toHaveValue('256M');
        await expect(memory).toHaveAccessibleDescription('At most 256M (Server Configuration)');
        await expect(dialog.getByRole('textbox', { name: /^PHP Max Execution Time/ })).toHaveValue('60');
        await memory.fill('512M');
        await memory.blur();
        const refusal = dialog.getByText(
          'PHP Memory Limit must be at most 256M, the server-wide PHP Memory Limit (Server Configuration, PHP)',
        );
        await expect(refusal).toBeVisible();
        await expect(dialog.getByRole('button', { name: 'Save Virtual Host' })).toBeDisabled();
        await refusal.scrollIntoViewIfNeeded();
        await shot(page, `web-vhost-php-ceiling-${vp.name}`);
        // Server Configuration says the rule under each of the four limits.
        await page.keyboard.press('Escape');
        await page.goto('/web/settings');
        const serverMemory = page.getByRole('textbox', { name: /^PHP Memory Limit/ });
        await expect(serverMemory).toHaveValue('256M');
        await expect(serverMemory).toBeEnabled();
        await serverMemory.scrollIntoViewIfNeeded();
        await shot(page, `web-settings-php-limits-${vp.name}`);
      } finally {
        await a.post('web/settings', before);
      }
    });

    test('server configuration: save and reset to defaults', async ({ page, request }) => {
      test.setTimeout(120_000);
      const key = await signIn(page);
      const a = api(request, key);
      await page.goto('/web/settings');
      for (const section of [
        'Server',
        'Performance',
        'Security',
        'Logging',
        'PHP',
        'Rate Limiting',
        'Advanced',
      ])
        await expect(page.getByRole('heading', { name: section, exact: true })).toBeVisible();
      const timeout = page.getByRole('textbox', { name: /^Timeout/ });
      await expect(timeout).toHaveValue(String((await a.get<Settings>('web/settings')).timeout));

      // A value the rules refuse disables Save, with the spec's message.
      await timeout.fill('0');
      await timeout.blur();
      await expect(page.getByText('Timeout must be at least 1')).toBeVisible();
      await expect(page.getByRole('button', { name: 'Save Configuration' })).toBeDisabled();

      await timeout.fill('120');
      await page.getByRole('textbox', { name: /^Keep Alive Timeout/ }).fill('7');
      // The PHP defaults reach every site's pool (issue 19 item 4); the server-wide limits are a new
      // host's values and every host's ceiling, said under the field.
      const inputTime = page.getByRole('textbox', { name: /^PHP Max Input Time/ });
      await expect(inputTime).toBeEnabled();
      await inputTime.fill('90');
      const memory = page.getByRole('textbox', { name: /^PHP Memory Limit/ });
      await expect(memory).toBeEnabled();
      await expect(memory).toHaveAccessibleDescription(/the most any virtual host may ask for/);
      await page.getByRole('button', { name: 'Save Configuration' }).click();
      await expect(
        page.getByRole('status').filter({ hasText: 'Web server settings saved successfully!' }),
      ).toBeVisible({
        timeout: 30_000,
      });
      let saved = await a.get<Settings>('web/settings');
      expect(saved.timeout).toBe(120);
      expect(saved.keepAliveTimeout).toBe(7);
      expect(saved.phpMaxInputTime).toBe(90);
      if (vp.name === 'phone') await expectNoSideScroll(page);
      await shot(page, `web-settings-${vp.name}`);

      // Reset to Defaults asks with the spec's text; the server's defaults come back into the form.
      await page.getByRole('button', { name: 'Reset to Defaults' }).first().click();
      const ask = page.getByRole('dialog');
      await expect(ask).toContainText(
        'Are you sure you want to reset all web server settings to their default values?',
      );
      await ask.getByRole('button', { name: 'Reset', exact: true }).click();
      await expect(page.getByRole('status').filter({ hasText: 'reset to their default values' })).toBeVisible(
        {
          timeout: 30_000,
        },
      );
      await expect(timeout).toHaveValue('300');
      saved = await a.get<Settings>('web/settings');
      expect(saved.timeout).toBe(300);
      expect(saved.keepAliveTimeout).toBe(5);
      if (vp.name === 'desktop') await axeCheck(page, '/web/settings');
    });

    test('dashboard: real figures and states, applications empty', async ({ page }) => {
      await signIn(page);
      await page.goto('/web');
      await expect(page.getByRole('heading', { level: 1, name: 'Web Management' })).toBeVisible();
      for (const card of ['Virtual Hosts', 'Web Applications', 'SSL Domains', 'Server Uptime'])
        await expect(page.getByText(card, { exact: true }).first()).toBeVisible();
      const status = page.getByRole('region', { name: 'Server Status' });
      for (const item of ['Web Server', 'PHP', 'Database', 'SSL/TLS'])
        await expect(status.getByRole('listitem', { name: item })).toBeVisible();
      // The database answers this very page: it is running, never a fixed word.
      await expect(status.getByRole('listitem', { name: 'Database' })).toContainText('Running');
      await expect(page.getByText('No web applications found').filter({ visible: true })).toBeVisible();
      await expect(page.getByText('99.9% availability')).toHaveCount(0);
      await page
        .getByRole('region', { name: 'Quick Actions' })
        .getByRole('link', { name: 'Server Configuration' })
        .click();
      await expect(page).toHaveURL(/\/web\/settings$/);
      await page.goBack();
      if (vp.name === 'phone') await expectNoSideScroll(page);
      await shot(page, `web-dashboard-${vp.name}`);
      if (vp.name === 'desktop') await axeCheck(page, '/web');
    });
  });
}
