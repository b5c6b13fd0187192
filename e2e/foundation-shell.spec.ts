import { formatBytes, formatUptime } from '../web/src/lib/format.ts';
import { ADMIN, expect, shot, signIn, test } from './fixtures.ts';

const SIDEBAR = [
  { label: 'Dashboard', path: '/dashboard' },
  { label: 'Mail Management', path: '/mail' },
  { label: 'DNS Management', path: '/dns' },
  { label: 'SSL Management', path: '/ssl' },
  { label: 'Web Management', path: '/web' },
  { label: 'MFA Management', path: '/mfa' },
  { label: 'System Management', path: '/system/monitoring' },
];

test.describe('the shell', () => {
  test.beforeEach(async ({ page }) => {
    await signIn(page);
  });

  test('the sidebar reaches every area and highlights the current one (Dashboard only on exact match)', async ({
    page,
  }) => {
    const nav = page.getByRole('navigation', { name: 'Main navigation' });
    for (const item of SIDEBAR) {
      await nav.getByRole('link', { name: item.label }).click();
      await expect(page).toHaveURL(new RegExp(`${item.path}$`));
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      const current = nav.locator('[aria-current="page"]');
      await expect(current, `highlight on ${item.path}`).toHaveCount(1);
      await expect(current).toContainText(item.label);
    }
    // Dashboard's highlight is exact: not under another path.
    await page.goto('/mail/aliases');
    await expect(nav.getByRole('link', { name: 'Mail Management' })).toHaveAttribute('aria-current', 'page');
    await expect(nav.getByRole('link', { name: 'Dashboard' })).not.toHaveAttribute('aria-current', 'page');
  });

  test('global search: at least 2 characters, pick a result, "No results"', async ({ page }) => {
    const search = page.getByRole('textbox', { name: 'Search', exact: true });
    await search.fill('a');
    await expect(page.getByRole('option')).toHaveCount(0);
    await expect(page.getByText('No results')).toBeHidden();

    await search.fill('alias');
    const option = page.getByRole('option', { name: 'Email Aliases' });
    await expect(option).toBeVisible();
    await shot(page, 'search-results');
    await option.click();
    await expect(page).toHaveURL(/\/mail\/aliases$/);
    await expect(search).toHaveValue('');

    await search.fill('zzqqxx');
    await expect(page.getByText('No results')).toBeVisible();
    await expect(page.getByRole('option')).toHaveCount(0);

    // Case-insensitive, on the module as well: 'DNS' matches the DNS destinations.
    await search.fill('dns');
    await expect(page.getByRole('option', { name: 'DNS Zones' })).toBeVisible();
    await expect(page.getByRole('option', { name: 'DNS Records' })).toBeVisible();
    // Keyboard: Enter picks the first (most relevant) result.
    await search.press('Enter');
    await expect(page).toHaveURL(/\/dns\/(zones|records|settings)$/);
    await expect(search).toHaveValue('');
  });

  test("keyboard shortcuts: '?' opens the help, Esc closes it, Ctrl+M goes to mail, typing '?' in a field does not", async ({
    page,
  }) => {
    const help = page.getByRole('dialog', { name: 'Keyboard Shortcuts' });
    await page.getByRole('heading', { level: 1 }).click();
    // '?' as a US keyboard sends it: Shift + the slash key.
    await page.keyboard.press('Shift+Slash');
    await expect(help).toBeVisible();
    await expect(help.getByText('Go to mail management')).toBeVisible();
    // Ctrl+W closes browser tabs: the help offers a working alternative.
    await expect(help.getByText(/Closes the tab in most browsers; use G then W/)).toBeVisible();
    await shot(page, 'keyboard-help');
    await page.keyboard.press('Escape');
    await expect(help).toBeHidden();

    await page.keyboard.press('Control+m');
    await expect(page).toHaveURL(/\/mail$/);
    // The two-key alternative for Ctrl+W.
    await page.keyboard.press('g');
    await page.keyboard.press('w');
    await expect(page).toHaveURL(/\/web$/);
    await page.keyboard.press('Control+h');
    await expect(page).toHaveURL(/\/dashboard$/);

    const search = page.getByRole('textbox', { name: 'Search', exact: true });
    await search.click();
    await page.keyboard.type('?m');
    await expect(search).toHaveValue('?m');
    await expect(help).toBeHidden();
    await page.keyboard.press('Control+m');
    await expect(page).toHaveURL(/\/dashboard$/);

    // '/' focuses the search box from anywhere else.
    await search.fill('');
    await page.getByRole('heading', { level: 1 }).click();
    await page.keyboard.press('/');
    await expect(search).toBeFocused();
  });

  test('notifications: auto-hide, badge, persistent errors with actions, mark all read, clear read, clear all', async ({
    page,
  }) => {
    const bell = page.getByRole('button', { name: /^Notifications/ });
    const list = page.getByRole('dialog', { name: 'Notifications' });
    const items = list.getByTestId('notification-item');
    const badge = page.getByTestId('notification-badge');

    // Signing in was a real event: a success notification, which hides itself (after 5 seconds).
    await bell.click();
    const signedIn = list.getByText('Signed in', { exact: true });
    await expect(signedIn).toBeVisible();
    await expect(signedIn).toBeHidden({ timeout: 9_000 });
    await expect(list.getByText('No notifications')).toBeVisible();
    await expect(bell).toHaveAccessibleName('Notifications');
    await bell.click();
    await expect(list).toBeHidden();

    // A refresh that cannot reach the server: the network is cut for this one call, the app's
    // own error path does the rest. Errors stay until dismissed and carry a Retry action.
    await page.route('**/*system*status*', (route) => route.abort('connectionrefused'));
    await page.getByRole('button', { name: 'Refresh' }).click();
    await expect(bell).toHaveAccessibleName('Notifications (1 unread)', { timeout: 15_000 });
    await expect(badge).toContainText('1');
    await bell.click();
    const failed = items.filter({ hasText: 'Failed to refresh system status' });
    await expect(failed).toContainText('Unable to connect to the server. Please check your connection.');
    await expect(failed).toContainText('Just now');
    await expect(failed).toHaveAttribute('data-read', 'false');
    await expect(failed.getByRole('button', { name: 'Retry' })).toHaveAttribute('data-style', 'primary');
    await shot(page, 'notifications-open');

    await list.getByRole('button', { name: 'Mark all read' }).click();
    await expect(bell).toHaveAccessibleName('Notifications');
    await expect(failed).toHaveAttribute('data-read', 'true');
    await list.getByRole('button', { name: 'Clear read' }).click();
    await expect(items).toHaveCount(0);
    await expect(list.getByText('No notifications')).toBeVisible();
    await bell.click();
    await expect(list).toBeHidden();

    // Fail once more, then Retry from the notification with the network back.
    await page.getByRole('button', { name: 'Refresh' }).click();
    await expect(bell).toHaveAccessibleName('Notifications (1 unread)', { timeout: 15_000 });
    await page.unroute('**/*system*status*');
    await bell.click();
    const retried = page.waitForResponse((r) => r.url().includes('system') && r.status() === 200);
    const failedAgain = items.filter({ hasText: 'Failed to refresh system status' });
    await failedAgain.getByRole('button', { name: 'Retry' }).click();
    await retried;
    const answeredAt = Date.now();
    const refreshed = list.getByText('System status refreshed');
    await expect(refreshed).toBeVisible();
    // The success of the same action takes its failure away; the success hides itself after about 5 s.
    await expect(failedAgain).toHaveCount(0);
    await expect(refreshed).toBeHidden({ timeout: 9_000 });
    expect(Date.now() - answeredAt, 'a success notification stays about 5000 ms').toBeGreaterThan(3_000);
    // Nothing is left to clear: the failure went with the success, and the success hid itself.
    await expect(items).toHaveCount(0);
    await expect(list.getByRole('button', { name: 'Clear all' })).toBeDisabled();
    await expect(list.getByText('No notifications')).toBeVisible();
    await expect(bell).toHaveAccessibleName('Notifications');
  });

  test('Esc closes the notifications dropdown, wherever the focus is', async ({ page }) => {
    const bell = page.getByRole('button', { name: /^Notifications/ });
    const list = page.getByRole('dialog', { name: 'Notifications' });
    await bell.click();
    await expect(list).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(list).toBeHidden();

    await bell.click();
    await list.getByRole('button', { name: 'Clear all' }).click();
    await expect(list.getByText('No notifications')).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(list).toBeHidden();
  });

  test('the theme toggle cycles light → dark → system and persists across a reload', async ({ page }) => {
    const html = page.locator('html');
    const toggle = page.getByRole('button', { name: /^Theme:/ });
    const stored = () => page.evaluate(() => localStorage.getItem('theme'));

    await page.emulateMedia({ colorScheme: 'light' });
    await expect(toggle).toHaveAccessibleName(/^Theme: System/);
    await toggle.click();
    await expect(toggle).toHaveAccessibleName(/^Theme: Light/);
    await expect(html).toHaveAttribute('data-mantine-color-scheme', 'light');
    expect(await stored()).toBe('light');

    await toggle.click();
    await expect(html).toHaveAttribute('data-mantine-color-scheme', 'dark');
    expect(await stored()).toBe('dark');
    await shot(page, 'dashboard-dark');

    await page.reload();
    await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
    await expect(html).toHaveAttribute('data-mantine-color-scheme', 'dark');
    await expect(page.getByRole('button', { name: /^Theme:/ })).toHaveAccessibleName(/^Theme: Dark/);
    expect(await stored()).toBe('dark');

    // System follows the operating system's preference, live.
    await page.getByRole('button', { name: /^Theme:/ }).click();
    expect(await stored()).toBe('system');
    await expect(html).toHaveAttribute('data-mantine-color-scheme', 'light');
    await page.emulateMedia({ colorScheme: 'dark' });
    await expect(html).toHaveAttribute('data-mantine-color-scheme', 'dark');
    await page.emulateMedia({ colorScheme: 'light' });
    await expect(html).toHaveAttribute('data-mantine-color-scheme', 'light');
    await page.getByRole('button', { name: /^Theme:/ }).click();
    expect(await stored()).toBe('light');
  });

  test("Refresh on the status card fetches the machine's status again and shows it", async ({ page }) => {
    await expect(page.getByTestId('system-status')).toBeVisible();
    const answer = page.waitForResponse(
      (r) =>
        decodeURIComponent(r.url()).includes('system/status') &&
        r.request().method() === 'GET' &&
        r.status() === 200,
    );
    await page.getByRole('button', { name: 'Refresh' }).click();
    const status = (await (await answer).json()) as {
      status: string;
      uptime: number;
      memory: { used: number; total: number };
      disk: { used: number; total: number };
    };
    expect(status.memory.total).toBeGreaterThan(0);
    await expect(page.getByTestId('system-status')).toHaveText(new RegExp(status.status, 'i'));
    await expect(page.getByTestId('system-uptime')).toHaveText(formatUptime(status.uptime));
    await expect(
      page.getByText(`${formatBytes(status.memory.used)} / ${formatBytes(status.memory.total)}`),
    ).toBeVisible();
    await expect(
      page.getByText(`${formatBytes(status.disk.used)} / ${formatBytes(status.disk.total)}`),
    ).toBeVisible();
  });

  test('at phone width the burger menu holds the navigation and the signed-in email', async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto('/dashboard');
    const nav = page.getByRole('navigation', { name: 'Main navigation' });
    const burger = page.getByRole('button', { name: /navigation menu/ });
    await expect(burger).toBeVisible();
    await expect(burger).toHaveAccessibleName(`Open navigation menu (signed in as ${ADMIN.email})`);
    // The collapsed menu is moved off-screen.
    await expect(nav.getByRole('link', { name: 'DNS Management' })).not.toBeInViewport();
    await shot(page, 'phone-dashboard');

    await burger.click();
    await expect(nav.getByRole('link', { name: 'DNS Management' })).toBeInViewport();
    await expect(nav.getByText(ADMIN.email)).toBeVisible();
    await expect(nav.getByRole('button', { name: 'Sign out' })).toBeVisible();
    await shot(page, 'phone-menu-open');
    await nav.getByRole('link', { name: 'DNS Management' }).click();
    await expect(page).toHaveURL(/\/dns$/);
    await expect(nav.getByRole('link', { name: 'DNS Management' })).not.toBeInViewport();
  });

  test("at phone width the closed menu stays out of the keyboard's way", async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto('/dashboard');
    await page.getByRole('button', { name: /navigation menu/ }).focus();
    // Tabbing through the header must never land on a link of the hidden, off-screen menu.
    for (let i = 0; i < 8; i++) {
      await page.keyboard.press('Tab');
      const focused = page.locator(':focus');
      const label = (await focused.getAttribute('aria-label')) ?? (await focused.textContent()) ?? '';
      await expect(focused, `Tab ${i + 1} focused "${label.trim()}"`).toBeInViewport();
    }
  });
});
