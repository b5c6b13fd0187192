import { axeCheck, expect, shot, signIn, test } from './fixtures.ts';

/**
 * Every console page of the route table. `axe: true` for the pages this (foundation) suite owns:
 * the dashboard and the placeholders of areas later issues build; the mail and DNS suites check
 * their own pages.
 */
const PAGES: { path: string; name: string; axe: boolean }[] = [
  { path: '/dashboard', name: 'dashboard', axe: true },
  { path: '/mail', name: 'mail', axe: false },
  { path: '/mail/mailboxes', name: 'mail-mailboxes', axe: false },
  { path: '/mail/aliases', name: 'mail-aliases', axe: false },
  { path: '/mail/settings', name: 'mail-settings', axe: false },
  { path: '/dns', name: 'dns', axe: false },
  { path: '/dns/zones', name: 'dns-zones', axe: false },
  { path: '/dns/records', name: 'dns-records', axe: false },
  { path: '/dns/settings', name: 'dns-settings', axe: false },
  { path: '/ssl', name: 'ssl', axe: true },
  { path: '/ssl/certificates', name: 'ssl-certificates', axe: true },
  { path: '/ssl/generate', name: 'ssl-generate', axe: true },
  { path: '/ssl/settings', name: 'ssl-settings', axe: true },
  { path: '/web', name: 'web', axe: true },
  { path: '/web/vhosts', name: 'web-vhosts', axe: true },
  { path: '/web/applications', name: 'web-applications', axe: true },
  { path: '/web/settings', name: 'web-settings', axe: true },
  { path: '/mfa', name: 'mfa', axe: true },
  { path: '/mfa/management', name: 'mfa-management', axe: true },
  { path: '/mfa/recovery', name: 'mfa-recovery', axe: true },
  { path: '/system', name: 'system', axe: true },
  { path: '/system/monitoring', name: 'system-monitoring', axe: true },
  { path: '/system/management', name: 'system-management', axe: true },
  { path: '/monitoring', name: 'monitoring', axe: true },
  { path: '/bulk-operations', name: 'bulk-operations', axe: true },
  { path: '/api-monitoring', name: 'api-monitoring', axe: true },
];

test('the sign-in page: accessible, and a screenshot', async ({ page }) => {
  await page.goto('/login');
  await expect(page.getByRole('heading', { level: 1, name: 'Management Dashboard' })).toBeVisible();
  await axeCheck(page, '/login');
  await shot(page, 'login');
  await page.emulateMedia({ colorScheme: 'dark' });
  await axeCheck(page, '/login (dark)');
  await shot(page, 'login-dark');
});

test.describe('console pages', () => {
  test.beforeEach(async ({ page }) => {
    await signIn(page);
  });

  for (const p of PAGES) {
    test(`${p.path}: header, breadcrumb${p.axe ? ', accessibility' : ''} and a screenshot`, async ({
      page,
    }) => {
      await page.goto(p.path);
      await expect(page).toHaveURL(new RegExp(`${p.path}$`));
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      if (p.path !== '/dashboard') {
        const crumbs = page.getByRole('navigation', { name: 'Breadcrumb' });
        await expect(crumbs.getByRole('link', { name: 'Dashboard' })).toHaveAttribute('href', '/dashboard');
      } else {
        await expect(page.getByTestId('system-status')).toBeVisible();
      }
      await expect(page.getByRole('status', { name: /Loading/ })).toHaveCount(0);
      if (p.axe) await axeCheck(page, p.path);
      await shot(page, `page-${p.name}`);
    });
  }

  test('the dashboard links the nine feature cards to their areas', async ({ page }) => {
    const targets = [
      '/mail',
      '/dns',
      '/ssl',
      '/web',
      '/mfa',
      '/system/monitoring',
      '/monitoring',
      '/bulk-operations',
      '/api-monitoring',
    ];
    const main = page.getByRole('main');
    for (const to of targets) await expect(main.locator(`a[href="${to}"]`)).toHaveCount(1);
    await main.locator('a[href="/bulk-operations"]').click();
    await expect(page).toHaveURL(/\/bulk-operations$/);
  });

  test('the dashboard in dark mode is accessible too', async ({ page }) => {
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.goto('/dashboard');
    await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', 'dark');
    await expect(page.getByTestId('system-status')).toBeVisible();
    await axeCheck(page, '/dashboard (dark)');
  });
});
