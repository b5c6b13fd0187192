import type { Page } from '@playwright/test';
import { openDatabase } from '../server/src/db/database.ts';
import { notify } from '../server/src/features/events/events.public.ts';
import { ADMIN, axeCheck, expect, shot, signIn, test, type E2eServer } from './fixtures.ts';

const MOBILE = { width: 390, height: 844 };

/** The e2e server's own database (SQLite file or PostgreSQL), for what only the server writes. */
async function withDb<T>(
  server: E2eServer,
  fn: (db: ReturnType<typeof openDatabase>['db']) => Promise<T>,
): Promise<T> {
  const handle = openDatabase({ databaseUrl: server.dbUrl, dataDir: server.dataDir });
  try {
    return await fn(handle.db);
  } finally {
    await handle.close();
  }
}

const shell = (page: Page) => page.getByRole('navigation', { name: 'Main navigation' });

test.describe('console shell (issue 12)', () => {
  test('a reload while the session check is slow, aborted or failing keeps the sign-in; a 401 signs out', async ({
    page,
  }) => {
    await signIn(page);
    await page.goto('/dns');
    await expect(shell(page)).toBeVisible();

    // Slow: the check takes 3 s, and the page is reloaded in the middle of it (the first fetch aborts).
    await page.route('**/auth/status', async (route) => {
      await new Promise((r) => setTimeout(r, 3_000));
      await route.continue().catch(() => undefined);
    });
    await page.reload({ waitUntil: 'commit' });
    await expect(page.getByRole('status', { name: 'Checking sign-in' })).toBeVisible();
    await page.reload();
    await expect(shell(page)).toBeVisible({ timeout: 15_000 });
    expect(new URL(page.url()).pathname).toBe('/dns');
    await page.unroute('**/auth/status');

    // Failed: the network refuses the check. Still signed in, still on the page.
    await page.route('**/auth/status', (route) => route.abort('failed'));
    await page.reload();
    await expect(shell(page)).toBeVisible();
    expect(await page.evaluate(() => localStorage.getItem('api_key'))).toBeTruthy();
    await page.unroute('**/auth/status');

    // A 5xx is not a sign-out either.
    await page.route('**/auth/status', (route) => route.fulfill({ status: 503, body: '{}' }));
    await page.reload();
    await expect(shell(page)).toBeVisible();
    await page.unroute('**/auth/status');

    // Only the server saying 401 signs out.
    await page.route('**/auth/status', (route) =>
      route.fulfill({
        status: 401,
        contentType: 'application/json',
        body: '{"code":"UNAUTHORIZED","message":"x"}',
      }),
    );
    await page.reload();
    await page.waitForURL('**/login');
    expect(await page.evaluate(() => localStorage.getItem('api_key'))).toBeNull();
  });

  test('Ctrl+S with a focused switch keeps the change; a dirty form asks before leaving', async ({
    page,
  }) => {
    await signIn(page);
    await page.goto('/mail/settings');
    // Mantine draws the switch over a transparent input: the input is the focusable control.
    const dmarc = page.getByRole('switch', { name: 'Enable DMARC' });
    await expect(dmarc).toBeAttached();
    const was = await dmarc.isChecked();
    await dmarc.focus();
    await page.keyboard.press('Space');
    await expect(dmarc).toBeChecked({ checked: !was });
    await expect(dmarc).toBeFocused();

    // Ctrl+S is "Go to SSL" (spec §9), but not while a form control has the focus.
    await page.keyboard.press('Control+s');
    await page.waitForTimeout(300);
    expect(new URL(page.url()).pathname).toBe('/mail/settings');
    await expect(dmarc).toBeChecked({ checked: !was });

    // With the focus elsewhere the shortcut works, but the unsaved change asks first.
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await page.keyboard.press('Control+s');
    const ask = page.getByRole('dialog', { name: 'Unsaved changes' });
    await expect(ask).toBeVisible();
    await axeCheck(page, 'unsaved changes dialog');
    await shot(page, 'console-shell-unsaved-dialog');
    await ask.getByRole('button', { name: 'Stay' }).click();
    await expect(ask).toBeHidden();
    expect(new URL(page.url()).pathname).toBe('/mail/settings');
    await expect(dmarc).toBeChecked({ checked: !was });

    // The sidebar asks too; Leave page goes.
    await shell(page).getByRole('link', { name: 'DNS Management' }).click();
    await expect(ask).toBeVisible();
    await ask.getByRole('button', { name: 'Stay' }).click();
    expect(new URL(page.url()).pathname).toBe('/mail/settings');

    // Closing the tab asks the browser's own question (beforeunload).
    const save = page.getByRole('button', { name: 'Save Settings' });
    await save.click();
    await expect(
      page.getByRole('status').filter({ hasText: 'Mail settings saved successfully!' }),
    ).toBeVisible();
    // Saved: nothing to lose, so leaving no longer asks.
    await shell(page).getByRole('link', { name: 'DNS Management' }).click();
    await page.waitForURL('**/dns');
    await expect(ask).toBeHidden();

    // The audit log shows the change with its before and after.
    await page.goto('/audit');
    await expect(page.getByRole('heading', { level: 1, name: 'Audit Log' })).toBeVisible();
    await page.getByRole('textbox', { name: 'Action' }).click();
    await page.getByRole('option', { name: /Mail settings/ }).click();
    const entry = page.getByRole('table', { name: 'Audit entries' }).getByRole('row').nth(1);
    await expect(entry).toContainText('mail.settings');
    await entry.getByRole('button', { name: /^Details of/ }).click();
    const changes = page.getByRole('dialog').getByRole('table', { name: /Changes of mail\.settings/ });
    await expect(changes).toBeVisible();
    await expect(changes.getByRole('row').filter({ hasText: 'enableDMARC' })).toContainText(String(!was));
    await axeCheck(page, '/audit');
    await shot(page, 'console-shell-audit');
    await page.getByRole('dialog').getByRole('button', { name: 'Close' }).click();
    // Put the setting back for the other specs.
    await page.goto('/mail/settings');
    await page.getByText('Enable DMARC', { exact: true }).click();
    await page.getByRole('button', { name: 'Save Settings' }).click();
    await expect(
      page.getByRole('status').filter({ hasText: 'Mail settings saved successfully!' }),
    ).toBeVisible();
  });

  test('Ctrl+F on the aliases list with an unfinished alias does not leave the page; closing the tab asks', async ({
    page,
  }) => {
    await signIn(page);
    await page.goto('/mail/aliases');
    await page.getByRole('button', { name: 'Add Alias' }).click();
    await page.getByLabel('Source Email').fill('half-typed@');
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await page.keyboard.press('Control+f');
    const ask = page.getByRole('dialog', { name: 'Unsaved changes' });
    await expect(ask).toBeVisible();
    await ask.getByRole('button', { name: 'Stay' }).click();
    expect(new URL(page.url()).pathname).toBe('/mail/aliases');
    await expect(page.getByLabel('Source Email')).toHaveValue('half-typed@');

    let asked = '';
    page.once('dialog', (d) => {
      asked = d.type();
      void d.dismiss();
    });
    await page.close({ runBeforeUnload: true });
    await expect.poll(() => asked).toBe('beforeunload');
  });

  test('search finds a mailbox by prefix, grouped, with the keyboard', async ({ page, request, server }) => {
    const key = await signIn(page);
    // The domain exists as an administrator would have added it; the mailbox is created by the API.
    await withDb(server, (db) =>
      db
        .insertInto('mail_domains')
        .values({
          domain: 'findme.example',
          explicit: 1,
          mailbox_count: 0,
          alias_count: 0,
          created_at: new Date().toISOString(),
        })
        .onConflict((oc) => oc.column('domain').doNothing())
        .execute(),
    );
    const res = await request.post('/api/mail/users/add', {
      headers: { Authorization: `Bearer ${key}` },
      data: { email: 'zebra.prefix@findme.example', password: 'password-zebra-1' },
    });
    expect(res.ok(), await res.text()).toBe(true);

    await page.goto('/dashboard');
    const search = page.getByRole('textbox', { name: 'Search' });
    await search.fill('zebra.p');
    const dropdown = page.getByTestId('search-dropdown');
    const option = dropdown.getByRole('option', { name: 'zebra.prefix@findme.example' });
    await expect(option).toBeVisible();
    await expect(dropdown).toContainText('Mailboxes');
    // Arrow keys move through the groups; Enter opens the highlighted one.
    for (let i = 0; i < 25 && (await option.getAttribute('data-combobox-selected')) === null; i++)
      await search.press('ArrowDown');
    await expect(option).toHaveAttribute('data-combobox-selected');
    await search.press('Enter');
    await page.waitForURL('**/mail/mailboxes?q=zebra.prefix%40findme.example');

    // The open list, checked by axe and photographed last: the axe run opens a page of its own,
    // which takes the focus from this one (the list hides 200 ms after blur).
    await page.goto('/dashboard');
    await search.fill('zebra.p');
    await expect(option).toBeVisible();
    await axeCheck(page, 'search dropdown');
    await search.focus();
    await expect(option).toBeVisible();
    await shot(page, 'console-shell-search');

    // The phone's palette (Ctrl+K) finds it the same way.
    await page.setViewportSize(MOBILE);
    await page.goto('/dashboard');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.getByRole('textbox', { name: 'Global search' }).fill('zebra');
    await expect(page.getByRole('button', { name: 'zebra.prefix@findme.example' })).toBeVisible();
    await shot(page, 'console-shell-search-phone');
  });

  test('a server notification arrives live, and its read state survives a reload', async ({
    page,
    server,
  }) => {
    await signIn(page);
    await page.goto('/dashboard');
    const bell = page.getByRole('button', { name: /^Notifications/ });
    await expect(bell).toBeVisible();
    const title = `Backup finished ${Date.now()}`;
    await withDb(server, (db) =>
      notify(db, { level: 'success', title, message: 'All mailboxes were saved.' }),
    );

    // Pushed over /api/events: a toast and the bell, without a reload.
    await expect(bell).toHaveAccessibleName(/Notifications \(\d+ unread\)/, { timeout: 15_000 });
    await bell.click();
    const list = page.getByRole('dialog', { name: 'Notifications' });
    const item = list.getByTestId('notification-item').filter({ hasText: title });
    await expect(item).toHaveAttribute('data-read', 'false');
    await expect(item).toHaveAttribute('data-source', 'server');
    // The bell changes at once; the reload waits for the server to have stored the change (a
    // reload started sooner aborts the call, and the server never hears of it).
    // The console sends a path with a slash as /api/index.php?path=… (spec §7).
    const stored = (path: RegExp) =>
      page.waitForResponse((r) => {
        const url = new URL(r.url());
        const route = url.searchParams.get('path') ?? url.pathname.replace(/^\/api\//, '');
        return r.request().method() === 'POST' && path.test(route) && r.ok();
      });
    const read = stored(/^notifications\/\d+\/read$/);
    await item.getByRole('button', { name: new RegExp(`^${title}`) }).click();
    await expect(item).toHaveAttribute('data-read', 'true');
    await read;

    await page.reload();
    await expect(bell).toBeVisible();
    await bell.click();
    const again = page
      .getByRole('dialog', { name: 'Notifications' })
      .getByTestId('notification-item')
      .filter({ hasText: title });
    await expect(again).toHaveAttribute('data-read', 'true');
    await axeCheck(page, 'notifications');
    await shot(page, 'console-shell-notifications');

    // Clear all is kept too (and leaves the bell empty for the other specs).
    const cleared = stored(/^notifications\/clear$/);
    await page
      .getByRole('dialog', { name: 'Notifications' })
      .getByRole('button', { name: 'Clear all' })
      .click();
    await cleared;
    await page.reload();
    await bell.click();
    // Other specs running beside this one may notify meanwhile: only this one must be gone.
    const dialog = page.getByRole('dialog', { name: 'Notifications' });
    await expect(dialog).toBeVisible();
    await expect(dialog.getByTestId('notification-item').filter({ hasText: title })).toHaveCount(0);
  });

  test('after a 401, signing in returns to the page the user was on', async ({ page, request }) => {
    const key = await signIn(page);
    await page.goto('/audit?from=2020-01-01');
    await expect(page.getByRole('heading', { level: 1, name: 'Audit Log' })).toBeVisible();
    // The session ends on the server (signed out elsewhere); the next call answers 401.
    await request.post('/auth/logout', { headers: { Authorization: `Bearer ${key}` } });
    // Whichever call comes first notices: this Refresh, or the events stream, which the server
    // ends with the session (its reconnect answers 401). The page may be at /login already, so a
    // click that finds no button is not a failure; reaching /login is the check.
    await page
      .getByRole('button', { name: 'Refresh' })
      .click({ timeout: 3_000 })
      .catch(() => undefined);
    await page.waitForURL('**/login');
    await page.getByLabel('Email address').fill(ADMIN.email);
    await page.getByRole('textbox', { name: 'Password', exact: true }).fill(ADMIN.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL('**/audit?from=2020-01-01');
    await expect(page.getByRole('heading', { level: 1, name: 'Audit Log' })).toBeVisible();
  });

  test('audit log screen: phone and dark', async ({ page }) => {
    await signIn(page);
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.evaluate(() => localStorage.setItem('theme', 'dark'));
    await page.goto('/audit');
    await expect(page.getByRole('table', { name: 'Audit entries' }).getByRole('row').nth(1)).toBeVisible();
    await axeCheck(page, '/audit dark');
    await shot(page, 'console-shell-audit-dark');
    await page.setViewportSize(MOBILE);
    await page.evaluate(() => localStorage.setItem('theme', 'light'));
    await page.reload();
    // Phones get one card per entry.
    await expect(
      page.getByRole('list', { name: 'Audit entries' }).getByRole('listitem').first(),
    ).toBeVisible();
    await axeCheck(page, '/audit phone');
    await shot(page, 'console-shell-audit-phone');
  });
});
