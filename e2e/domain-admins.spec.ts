import type { APIRequestContext, Locator, Page } from '@playwright/test';
import { axeCheck, expect, shot, signIn, test } from './fixtures.ts';

const MOBILE = { width: 390, height: 844 };
const DA = { email: 'da@example.com', password: 'domain-admin-pass-1' };
const zoneForm = (domain: string) => ({
  domain,
  zoneType: 'primary',
  primaryNs: 'ns1.example.net',
  adminEmail: 'hostmaster@example.net',
  serial: 1,
  refresh: 3600,
  retry: 1800,
  expire: 604800,
});

async function arrange(request: APIRequestContext, key: string) {
  const headers = { Authorization: `Bearer ${key}` };
  const post = async (path: string, data: unknown) => {
    const res = await request.post(`/api/${path}`, { headers, data });
    expect(res.ok(), `${path}: ${res.status()} ${await res.text()}`).toBe(true);
  };
  for (const d of ['own.test', 'other.test']) await post('dns/zones/add', zoneForm(d));
  for (const email of ['alice@own.test', 'bob@other.test'])
    await post('mail/users/add', { email, password: 'mailbox-password', quota: 0, createDomain: true });
}

/**
 * The actions whose routes are an administrator's only (no `access: 'domain'` in the catalogue):
 * present for an administrator, absent for a domain administrator (they would answer 403).
 */
async function expectAdminActions(page: Page, present: boolean) {
  const count = (n: number) => (present ? n > 0 : n === 0);
  const check = async (what: string, locator: Locator) => {
    await expect.poll(async () => count(await locator.count()), { message: what }).toBe(true);
  };
  await page.goto('/mail/mailboxes');
  await expect(page.getByText('alice@own.test').first()).toBeVisible();
  await expect(page.getByRole('button', { name: 'Add Mailbox' })).toBeVisible();
  await check('Bulk Create', page.getByRole('button', { name: 'Bulk Create' }));

  await page.goto('/mail/aliases');
  await expect(
    page.getByRole('table', { name: 'Email aliases' }).getByRole('row', { name: /postmaster@own\.test/ }),
  ).toBeVisible();
  await expect(page.getByRole('button', { name: 'Add Alias' })).toBeVisible();
  await check('Import Aliases', page.getByRole('button', { name: 'Import Aliases' }));
  await check('alias selection', page.getByRole('checkbox', { name: 'Select all rows on this page' }));

  await page.goto('/mail/domains');
  await expect(page.getByText('own.test').first()).toBeVisible();
  await check('Add Domain', page.getByRole('button', { name: 'Add Domain' }));
  await check('Remove own.test', page.getByRole('button', { name: 'Remove own.test' }));

  await page.goto('/dns/zones');
  await expect(page.getByRole('button', { name: 'Edit own.test' })).toBeVisible();
  await check('Add DNS Zone', page.getByRole('button', { name: 'Add DNS Zone' }));
  await check('Delete own.test', page.getByRole('button', { name: 'Delete own.test' }));

  await page.goto('/dns/records');
  await expect(page.getByRole('button', { name: 'Add DNS Record' })).toBeVisible();
  // The list has answered (its rows carry the selection boxes where there are any).
  await expect(page.getByRole('table', { name: 'DNS records' }).getByRole('row').nth(1)).toBeVisible();
  await expect(page.getByRole('button', { name: 'Export Records' })).toBeVisible();
  await check('Import Records', page.getByRole('button', { name: 'Import Records' }));
  await check('record selection', page.getByRole('checkbox', { name: 'Select all rows on this page' }));
  // The system records come from an administrator's route: never a failure panel instead.
  await expect(page.getByText('Failed to load system records')).toHaveCount(0);
}

test.describe('domain administrators', () => {
  test('an administrator creates one; they see only their domain and no settings pages', async ({
    page,
    request,
  }) => {
    test.setTimeout(120_000);
    const key = await signIn(page);
    await arrange(request, key);
    await expectAdminActions(page, true);

    // The administrator adds the domain administrator from the MFA management screen.
    await page.goto('/mfa/management');
    await page.getByRole('button', { name: 'Add account' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add account' });
    await dialog.getByLabel('Email').fill(DA.email);
    await dialog.getByLabel('Password').fill(DA.password);
    await dialog.getByRole('textbox', { name: 'Role' }).click();
    await page.getByRole('option', { name: 'Domain administrator' }).click();
    await dialog.getByRole('textbox', { name: 'Domains' }).fill('own.test');
    await dialog.getByRole('textbox', { name: 'Domains' }).press('Enter');
    // Closes the suggestions (they cover the fields below).
    await dialog.getByLabel('Email').click();
    await dialog.getByLabel('Require MFA enrolment at first sign-in').uncheck();
    await dialog.getByRole('button', { name: 'Add account' }).click();
    await expect(dialog).toBeHidden();
    await page.getByRole('tab', { name: 'Console accounts' }).click();
    const row = page.getByRole('row', { name: new RegExp(DA.email) });
    await expect(row).toContainText('Domain administrator');
    await expect(row).toContainText('own.test');
    await axeCheck(page, '/mfa/management (console accounts)');

    // The domain administrator signs in: they start at their mailboxes.
    await page
      .getByRole('navigation', { name: 'Main navigation' })
      .getByRole('button', { name: 'Sign out' })
      .click();
    await page.waitForURL('**/login');
    await page.getByLabel('Email address').fill(DA.email);
    await page.getByRole('textbox', { name: 'Password', exact: true }).fill(DA.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL('**/mail/mailboxes');
    await expect(page.getByText('alice@own.test').first()).toBeVisible();
    await expect(page.getByText('bob@other.test')).toHaveCount(0);
    const nav = page.getByRole('navigation', { name: 'Main navigation' });
    await expect(nav.getByRole('link', { name: 'Mail Management' })).toBeVisible();
    for (const hidden of [
      'Dashboard',
      'SSL Management',
      'Web Management',
      'MFA Management',
      'System Management',
      'Audit Log',
    ])
      await expect(nav.getByRole('link', { name: hidden })).toHaveCount(0);
    await expect(nav.getByRole('link', { name: 'Mail Settings' })).toHaveCount(0);
    await axeCheck(page, '/mail/mailboxes (domain administrator)');
    await shot(page, 'domain-admin-mailboxes-desktop');

    await page.goto('/dns/zones');
    await expect(page.getByText('own.test').first()).toBeVisible();
    await expect(page.getByText('other.test')).toHaveCount(0);
    await axeCheck(page, '/dns/zones (domain administrator)');
    await shot(page, 'domain-admin-zones-desktop');

    // No button whose route would answer 403.
    await expectAdminActions(page, false);
    await axeCheck(page, '/dns/records (domain administrator)');

    // A settings page by its address: a clear "not allowed" state, no crash.
    await page.goto('/mail/settings');
    await expect(page.getByRole('heading', { name: 'Not allowed' })).toBeVisible();
    await axeCheck(page, '/mail/settings (domain administrator)');
    await shot(page, 'domain-admin-not-allowed-desktop');

    await page.setViewportSize(MOBILE);
    await page.goto('/mail/mailboxes');
    await expect(page.getByText('alice@own.test').first()).toBeVisible();
    await axeCheck(page, '/mail/mailboxes (domain administrator, 390px)');
    await shot(page, 'domain-admin-mailboxes-phone');
  });
});
