import type { APIRequestContext, Page } from '@playwright/test';
import { axeCheck, expect, shot, signIn, test } from './fixtures.ts';

// The record lists moved onto the shared data table: the MFA users list paged, searched and
// sorted by the server; certificates, audit log, MFA devices/recovery and System Monitoring tabs.

const MOBILE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 800 };

async function usersTotal(request: APIRequestContext, key: string, query: string) {
  const res = await request.get(`/api/mfa/users?${query}`, { headers: { Authorization: `Bearer ${key}` } });
  expect(res.ok(), await res.text()).toBe(true);
  return {
    total: Number(res.headers()['x-total-count']),
    rows: (await res.json()) as { email: string }[],
  };
}

/** The shared table on a desktop, its cards on a phone. */
const tableOrCards = (page: Page, label: string) =>
  page.getByRole('table', { name: label }).or(page.getByRole('list', { name: label }));

/** Desktop light and dark, phone light and dark: axe on each, a screenshot of each. */
async function looks(page: Page, name: string, ready: () => Promise<void>) {
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.evaluate((s) => localStorage.setItem('theme', s), scheme);
    for (const [size, vp] of [
      ['desktop', DESKTOP],
      ['phone', MOBILE],
    ] as const) {
      await page.setViewportSize(vp);
      await page.reload();
      await ready();
      await axeCheck(page, `${name} ${size} ${scheme}`);
      await shot(page, `console-tables-${name}-${size}-${scheme}`);
    }
  }
  await page.emulateMedia({ colorScheme: 'light' });
  await page.evaluate(() => localStorage.setItem('theme', 'light'));
  await page.setViewportSize(DESKTOP);
}

test.describe('record lists on the shared data table', () => {
  test('MFA users: search, sort and pages come from the server', async ({ page, request }) => {
    test.setTimeout(120_000);
    const key = await signIn(page);
    const headers = { Authorization: `Bearer ${key}` };
    for (const email of ['ann@people.test', 'anna@people.test', 'bob@people.test']) {
      const res = await request.post('/api/mail/users/add', {
        headers,
        data: { email, password: 'mailbox-password', quota: 0, createDomain: true },
        timeout: 90_000,
      });
      expect(res.ok(), await res.text()).toBe(true);
    }
    const all = await usersTotal(request, key, 'limit=1');

    await page.goto('/mfa/management');
    const table = page.getByRole('table', { name: 'Users' });
    await expect(table).toBeVisible();
    await expect(page.getByRole('tab', { name: `Users (${all.total})` })).toBeVisible();
    await expect(page.getByText(`of ${all.total} users`)).toBeVisible();

    // Prefix search on the server: "ann" finds ann@ and anna@, not bob@.
    await page.getByLabel('Search users').fill('ann');
    await expect(table.getByRole('row')).toHaveCount(3);
    await expect(table).toContainText('anna@people.test');
    await expect(table).not.toContainText('bob@people.test');
    await expect(page.getByText('Showing 1–2 of 2 users')).toBeVisible();

    // Sorting asks the server: descending by user puts anna@ first.
    const header = table.getByRole('columnheader', { name: 'User', exact: true });
    await expect(header).toHaveAttribute('aria-sort', 'ascending');
    await header.getByRole('button').click();
    await expect(header).toHaveAttribute('aria-sort', 'descending');
    await expect(table.getByRole('row').nth(1)).toContainText('anna@people.test');
    // Columns the server does not order have no sort button.
    await expect(table.getByRole('columnheader', { name: 'Devices' }).getByRole('button')).toHaveCount(0);
    await expect(table.getByRole('columnheader', { name: 'Last MFA Login' }).getByRole('button')).toHaveCount(
      1,
    );

    // The MFA filter is the server's too: nobody here has a factor.
    await page.getByRole('textbox', { name: 'Filter users' }).click();
    await page.getByRole('option', { name: 'MFA Enabled' }).click();
    await expect(table).toContainText('No users found');

    await page.getByRole('textbox', { name: 'Filter users' }).click();
    await page.getByRole('option', { name: 'All' }).click();
    await page.getByLabel('Search users').fill('');
    await looks(page, 'mfa-users', async () => {
      await expect(tableOrCards(page, 'Users')).toBeVisible();
      await expect(page.getByText(/Showing 1–\d+ of \d+ users/)).toBeVisible();
    });
    await page.getByRole('tab', { name: /Devices/ }).click();
    await expect(tableOrCards(page, 'Devices')).toBeVisible();
  });

  test('certificates and audit log: desktop, phone, light and dark', async ({ page }) => {
    test.setTimeout(150_000);
    await signIn(page);
    await page.goto('/ssl/certificates');
    await expect(page.getByRole('heading', { level: 1, name: 'Certificate Management' })).toBeVisible();
    await looks(page, 'ssl-certificates', async () => {
      await expect(tableOrCards(page, 'SSL certificates')).toBeVisible();
    });
    await page.goto('/audit');
    await looks(page, 'audit', async () => {
      await expect(tableOrCards(page, 'Audit entries')).toBeVisible();
      await expect(page.getByText(/Showing 1–\d+ of \d+ entries/)).toBeVisible();
    });
  });

  test('MFA recovery tabs: desktop, phone, light and dark', async ({ page }) => {
    test.setTimeout(120_000);
    await signIn(page);
    await page.goto('/mfa/recovery');
    await looks(page, 'mfa-recovery', async () => {
      await expect(tableOrCards(page, 'Recovery requests')).toBeVisible();
    });
  });

  test('System Monitoring processes, connections and queue: desktop, phone, light and dark', async ({
    page,
  }) => {
    test.setTimeout(240_000);
    await signIn(page);
    await page.goto('/system/monitoring');
    for (const [tab, name, label, search] of [
      ['Processes', 'monitoring-processes', 'Processes', 'Search processes'],
      ['Network Connections', 'monitoring-connections', 'Network connections', 'Search connections'],
      ['Mail Queue', 'monitoring-queue', 'Mail queue', null],
    ] as const) {
      await looks(page, name, async () => {
        await page.getByRole('tab', { name: new RegExp(tab) }).click();
        // A few rows keep the full-page screenshots small (the machine lists hundreds).
        if (search) await page.getByLabel(search).fill('node');
        await expect(tableOrCards(page, label)).toBeVisible();
      });
    }
  });
});
