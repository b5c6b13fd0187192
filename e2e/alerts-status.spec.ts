import type { Locator, Page } from '@playwright/test';
import { apiClient } from './api-client.ts';
import { expect, MOBILE, shot, signIn, test } from './fixtures.ts';

/**
 * Issue 22 #11–14 and #19 on the screens: the dashboard's status says why it is not "running", the
 * cards use the alert engine's thresholds, services Mailroom does not run offer no Start/Restart,
 * restarts of mail daemons and Restart All ask first naming what stops, and toasts neither cover
 * the header's buttons nor repeat a field's error nor outlive the action's success.
 */

const SIZES = [
  { name: 'desktop', viewport: { width: 1280, height: 800 } },
  { name: 'phone', viewport: MOBILE },
] as const;

async function setValues(page: Page, key: string, values: Record<string, string>) {
  const res = await page.request.put('/api/system/settings/values', {
    headers: { Authorization: `Bearer ${key}` },
    data: { values },
  });
  expect(res.ok(), await res.text()).toBe(true);
}

/** An API call in either form the console sends (`/api/<path>` or `/api/index.php?path=<path>`). */
const api = (path: string) => (url: URL) =>
  url.pathname === `/api/${path}` ||
  (url.pathname === '/api/index.php' && url.searchParams.get('path') === path);

/** The buttons and links of the shell's header and of the page header that the toast covers. */
async function coveredByToast(page: Page, toast: Locator): Promise<string[]> {
  // Where it settles: a toast slides in, so wait until two readings 250 ms apart agree.
  let box = await toast.boundingBox();
  for (let i = 0; i < 20; i++) {
    await page.waitForTimeout(250);
    const next = await toast.boundingBox();
    const same = box && next && box.x === next.x && box.y === next.y && box.width === next.width;
    box = next;
    if (same) break;
  }
  expect(box).not.toBeNull();
  return page.evaluate((t) => {
    const hits: string[] = [];
    // The shell's header, and the page header: the row of the page's title (h1) and its buttons.
    const pageHeader = document.querySelector('main h1')?.closest('.mantine-Group-root');
    const els = [
      ...Array.from(document.querySelectorAll('header button, header a')),
      ...(pageHeader ? Array.from(pageHeader.querySelectorAll('button, a')) : []),
    ];
    for (const el of els) {
      const r = el.getBoundingClientRect();
      if (!r.width || !r.height) continue;
      if (r.x < t.x + t.width && t.x < r.x + r.width && r.y < t.y + t.height && t.y < r.y + r.height)
        hits.push(el.getAttribute('aria-label') ?? el.textContent ?? '?');
    }
    return hits;
  }, box!);
}

test.describe('alerts, status and services on the screens', () => {
  test.describe.configure({ timeout: 120_000 });

  for (const size of SIZES) {
    test(`dashboard status names its reasons; every card uses the engine's thresholds (${size.name})`, async ({
      page,
    }) => {
      await page.setViewportSize(size.viewport);
      const key = await signIn(page);
      // Thresholds any real disk passes: the status and the cards must agree with them.
      await setValues(page, key, { diskWarning: '1', diskCritical: '2' });
      try {
        await page.goto('/dashboard');
        const status = page.getByTestId('system-status');
        await expect(status).toHaveText('critical');
        const reasons = page.getByTestId('system-status-reasons');
        await expect(reasons).toContainText(/Disk usage is \d+\.\d% \(critical threshold 2%\)/);
        // The mail and DNS daemons' states, with their words.
        const daemons = page.getByTestId('system-status-daemons');
        for (const name of ['Postfix', 'Dovecot', 'Rspamd', 'BIND'])
          await expect(daemons).toContainText(name);
        await shot(page, `alerts-dashboard-status-${size.name}`);

        // The same disk figure and the same thresholds on /monitoring's cards.
        const api = apiClient(page.request, key);
        const st = await api.get<{ disk: { percent: number } }>('system/status');
        await page.goto('/monitoring');
        const disk = page.getByTestId('metric-disk');
        await expect(disk).toBeVisible();
        expect(Math.abs(Number(await disk.textContent()) - st.disk.percent)).toBeLessThan(1);
        await expect(page.getByText('Warning 1%, critical 2%')).toBeVisible();
        await page.goto('/system/monitoring');
        await expect(page.getByTestId('gauge-disk')).toBeVisible();
        await expect(
          page.locator('.mantine-Card-root').filter({ has: page.getByTestId('gauge-disk') }),
        ).toContainText('Critical');
      } finally {
        await setValues(page, key, { diskWarning: '85', diskCritical: '95' });
      }
    });
  }

  test('services Mailroom does not run offer no Start or Restart (real states), at 1280 and 390', async ({
    page,
  }) => {
    await signIn(page);
    for (const size of SIZES) {
      await page.setViewportSize(size.viewport);
      await page.goto('/monitoring');
      const postfix = page.getByTestId('service-postfix');
      await expect(postfix).toBeVisible();
      // This server runs no daemon (MAILROOM_RUN_DAEMONS=0): nothing to start or restart here.
      for (const id of ['postfix', 'dovecot', 'named', 'rspamd', 'apache2', 'postgresql', 'mailroom']) {
        const row = page.getByTestId(`service-${id}`);
        await expect(row.getByRole('button', { name: /Start|Restart/ })).toHaveCount(0);
        await expect(row).toContainText('Not run by Mailroom');
      }
      await shot(page, `alerts-monitoring-services-${size.name}`);
      await page.goto('/system');
      await expect(page.getByRole('button', { name: 'Restart All' })).toBeDisabled();
    }
  });

  test('a restart of a mail daemon and Restart All ask first, naming what stops', async ({ page }) => {
    await signIn(page);
    // The services as a supervising server answers them (this one runs no daemon): Postfix run by
    // Mailroom and running. Only the list is rewritten; the actions below must never be sent.
    await page.route(api('system/services'), async (route) => {
      const res = await route.fetch();
      const body = (await res.json()) as { services: Record<string, unknown>[] };
      for (const s of body.services)
        if (s.id === 'postfix') Object.assign(s, { status: 'running', controllable: true, pid: 4242 });
      await route.fulfill({ response: res, json: body });
    });
    const sent: string[] = [];
    page.on('request', (r) => {
      if (r.method() === 'POST' && /system\/services/.test(decodeURIComponent(r.url()))) sent.push(r.url());
    });
    for (const size of SIZES) {
      await page.setViewportSize(size.viewport);
      await page.goto('/monitoring');
      await page.getByTestId('service-postfix').getByRole('button', { name: 'Restart' }).click();
      const dialog = page.getByRole('dialog', { name: 'Restart Postfix?' });
      await expect(dialog).toContainText('Mail delivery pauses');
      await shot(page, `alerts-restart-confirm-${size.name}`);
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      await expect(dialog).toBeHidden();

      await page.goto('/system');
      await page.getByRole('button', { name: 'Restart All' }).click();
      const all = page.getByRole('dialog', { name: 'Restart all services?' });
      await expect(all).toContainText('Postfix will stop and start again');
      await expect(all).toContainText('Mail delivery pauses');
      await all.getByRole('button', { name: 'Cancel' }).click();
      await expect(all).toBeHidden();
    }
    expect(sent).toEqual([]);
  });

  for (const size of SIZES) {
    test(`toasts leave the header's buttons free, do not repeat a field's error, and a failure goes on success (${size.name})`, async ({
      page,
    }) => {
      await page.setViewportSize(size.viewport);
      await signIn(page);

      // A toast on a page whose header has buttons (System Management: Refresh, System Settings).
      await page.goto('/system/management');
      await page.getByRole('button', { name: 'System Settings' }).click();
      const modal = page.getByRole('dialog', { name: 'System Settings' });
      await modal.getByRole('button', { name: 'Save Settings' }).click();
      const toast = page.locator('.mantine-Notification-root').filter({ hasText: 'System settings saved' });
      await expect(toast).toBeVisible();
      await expect(modal).toBeHidden();
      expect(await coveredByToast(page, toast)).toEqual([]);
      await shot(page, `alerts-toast-position-${size.name}`);
      // A success hides itself after 5 s.
      await expect(toast).toHaveCount(0, { timeout: 10_000 });

      // An error the server names at its field is shown there, not again in a toast.
      await page.getByRole('tab', { name: /System Settings/ }).click();
      await page.getByRole('button', { name: 'Edit CPU warning (%)' }).click();
      await page.getByRole('textbox', { name: 'CPU warning (%)' }).fill('abc');
      await page.getByRole('button', { name: /Save All/ }).click();
      await expect(page.getByText('CPU warning must be a whole number from 1 to 100')).toHaveCount(1);
      // Give a toast the time to appear: none may.
      await page.waitForTimeout(1500);
      await expect(page.locator('.mantine-Notification-root')).toHaveCount(0);

      // "Failed to refresh system status", then the same Refresh works: the failure goes.
      await page.goto('/dashboard');
      await expect(page.getByTestId('system-status')).toBeVisible();
      // The server answers 500 (every retry) until the route is taken away.
      const down = api('system/status');
      await page.route(down, (r) => r.fulfill({ status: 500, json: { message: 'down' } }));
      const card = page.getByRole('region', { name: 'System Status' });
      await card.getByRole('button', { name: 'Refresh' }).click();
      const failed = page
        .locator('.mantine-Notification-root')
        .filter({ hasText: 'Failed to refresh system status' });
      await expect(failed).toBeVisible({ timeout: 20_000 });
      await page.unroute(down);
      await card.getByRole('button', { name: 'Refresh' }).click();
      await expect(
        page.locator('.mantine-Notification-root').filter({ hasText: 'System status refreshed' }),
      ).toBeVisible();
      await expect(failed).toHaveCount(0);
      await page
        .getByRole('button', { name: /Notifications/ })
        .first()
        .click();
      await expect(page.getByText('Failed to refresh system status')).toHaveCount(0);
    });
  }
});

test('one MFA state for a person on /mfa and /mfa/management (required, not yet enrolled)', async ({
  page,
}) => {
  const key = await signIn(page);
  const api = apiClient(page.request, key);
  const who = { email: 'enrol-later@example.com', password: 'enrol-later-password-1' };
  await api.addAccount({ ...who });
  await api.post('mfa/enable', { email: who.email });
  // Rows at 1280, cards at 390: the person's entry is found by the address either way.
  const entry = () => page.locator('tr, li').filter({ hasText: who.email }).last();
  for (const size of SIZES) {
    await page.setViewportSize(size.viewport);
    await page.goto('/mfa');
    await expect(page.getByText(who.email).first()).toBeVisible();
    await expect(entry()).toContainText('Required, not enrolled');
    await expect(entry()).not.toContainText(/\bDisabled\b/);
    await page.goto('/mfa/management');
    await expect(page.getByText(who.email).first()).toBeVisible();
    await expect(entry()).toContainText('Required, not enrolled');
    await expect(page.getByRole('switch', { name: `MFA for ${who.email}` })).toBeChecked();
  }
});
