import { apiClient as api } from './api-client.ts';
import { axeCheck, expect, expectNoSideScroll, MOBILE, shot, signIn, test } from './fixtures.ts';

test.describe('mail screens: domains, shared table, bulk actions', () => {
  test('a mailbox for an unknown domain is refused, then created deliberately; Domains lists it', async ({
    page,
  }) => {
    await signIn(page);
    await page.goto('/mail/mailboxes');
    await page.getByRole('button', { name: 'Add Mailbox' }).click();
    const form = page.locator('section', { has: page.getByRole('heading', { name: 'Add Mailbox' }) });
    // The form starts again once the settings (Default Quota) arrive: wait for them before typing.
    await expect(form.getByLabel('Quota (MB)')).toHaveValue('1000', { timeout: 30_000 });
    await form.getByLabel(/^Email/).fill('first@brand-new-domain.net');
    await form.getByLabel(/^Password/).fill('mailbox-password-1');
    const create = form.getByLabel('Create the new mail domain brand-new-domain.net');
    await expect(create).not.toBeChecked();
    await form.getByRole('button', { name: 'Create Mailbox' }).click();
    await expect(
      form.getByText('brand-new-domain.net is not a mail domain yet', { exact: false }).first(),
    ).toBeVisible();
    await shot(page, 'mail-screens-unknown-domain-refused');
    await create.check();
    await form.getByRole('button', { name: 'Create Mailbox' }).click();
    // A new domain gets its DKIM key (2048-bit RSA) before the answer: give it time.
    await expect(form).toBeHidden({ timeout: 60_000 });
    await expect(page.getByRole('row').filter({ hasText: 'first@brand-new-domain.net' })).toBeVisible();

    // The sidebar leads to Domains, which lists it with its counts.
    await page.getByRole('link', { name: 'Domains', exact: true }).click();
    await expect(page).toHaveURL(/\/mail\/domains$/);
    const row = page.getByRole('row').filter({ hasText: 'brand-new-domain.net' });
    await expect(row).toBeVisible();
    await expect(row.getByRole('cell').nth(1)).toHaveText('1');
    await expect(row.getByRole('button', { name: 'Remove brand-new-domain.net' })).toBeDisabled();
    // Add and remove an empty domain.
    await page.getByLabel('Domain', { exact: true }).fill('empty-domain.test');
    await page.getByRole('button', { name: 'Add Domain' }).click();
    const empty = page.getByRole('row').filter({ hasText: 'empty-domain.test' });
    await expect(empty).toBeVisible();
    await axeCheck(page, 'mail domains');
    await shot(page, 'mail-screens-domains');
    await empty.getByRole('button', { name: 'Remove empty-domain.test' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Remove', exact: true }).click();
    await expect(empty).toBeHidden();
  });

  test('sort, select and bulk suspend/resume; bulk create dry run; phone width and dark', async ({
    page,
    request,
  }) => {
    const key = await signIn(page);
    const a = api(request, key);
    await a.post('mail/domains/add', { domain: 'bulk.test' });
    for (const [name, quota] of [
      ['amy', 300],
      ['ben', 100],
      ['cid', 200],
    ] as const)
      await a.post('mail/users/add', {
        email: `${name}@bulk.test`,
        password: 'password-bulk-1',
        quota: quota * 1024 * 1024,
      });

    await page.goto('/mail/mailboxes');
    await page.locator('input[aria-label="Filter by domain"]').click();
    await page.getByRole('option', { name: 'bulk.test' }).click();
    const emails = () =>
      page
        .getByRole('table', { name: 'Mailboxes' })
        .getByRole('row')
        .filter({ hasText: '@bulk.test' })
        .locator('td:nth-child(2) p')
        .allInnerTexts();
    await expect.poll(emails).toEqual(['amy@bulk.test', 'ben@bulk.test', 'cid@bulk.test']);
    // Sort by quota, then the other way.
    const quota = page.getByRole('columnheader', { name: 'Quota', exact: true });
    await quota.getByRole('button').click();
    await expect(quota).toHaveAttribute('aria-sort', 'ascending');
    await expect.poll(emails).toEqual(['ben@bulk.test', 'cid@bulk.test', 'amy@bulk.test']);
    await quota.getByRole('button').click();
    await expect(quota).toHaveAttribute('aria-sort', 'descending');
    await expect.poll(emails).toEqual(['amy@bulk.test', 'cid@bulk.test', 'ben@bulk.test']);

    // Select two, suspend them in one go.
    await page.getByRole('checkbox', { name: 'Select amy@bulk.test' }).first().check();
    await page.getByRole('checkbox', { name: 'Select ben@bulk.test' }).first().check();
    const bar = page.getByRole('region', { name: 'Selected mailboxes' });
    await expect(bar).toContainText('2 mailboxes selected');
    await shot(page, 'mail-screens-selection');
    await bar.getByRole('button', { name: 'Suspend' }).click();
    await expect(bar).toBeHidden();
    await page.locator('input[aria-label="Filter by status"]').click();
    await page.getByRole('option', { name: 'Suspended' }).click();
    await expect.poll(emails).toEqual(['amy@bulk.test', 'ben@bulk.test']);
    const boxes = await a.get<{ email: string; status: string }[]>(
      'mail/users?domain=bulk.test&status=suspended',
    );
    expect(boxes.map((b) => b.email).sort()).toEqual(['amy@bulk.test', 'ben@bulk.test']);
    await page.getByRole('checkbox', { name: 'Select all rows on this page' }).check();
    await bar.getByRole('button', { name: 'Resume' }).click();
    await expect.poll(emails).toEqual([]);
    await axeCheck(page, 'mailboxes with filters');

    // Bulk create: the dry run names refused rows and the domain it would create; nothing is written.
    await page.getByRole('button', { name: 'Bulk Create' }).click();
    const card = page.locator('section', {
      has: page.getByRole('heading', { name: 'Bulk Create Mailboxes' }),
    });
    await card.locator('input[type="file"]').setInputFiles({
      name: 'boxes.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(
        'email,password\nnew1@bulk.test,password-new-1\nx@unlisted.test,password-x-1\nbad,pw\n',
      ),
    });
    await card.getByLabel('Check only (dry run)').check();
    await card.getByRole('button', { name: 'Create Mailboxes' }).click();
    const outcome = card.getByRole('status', { name: 'Import result' });
    await expect(outcome).toContainText('1 mailbox would be imported, 0 skipped, 2 errors.');
    await expect(
      outcome
        .getByRole('table', { name: 'Rows not imported' })
        .getByRole('row')
        .filter({ hasText: 'email: unlisted.test is not a mail domain yet' }),
    ).toContainText('3');
    await card.getByLabel('Create missing domains').check();
    await card.getByRole('button', { name: 'Create Mailboxes' }).click();
    await expect(outcome).toContainText('2 mailboxes would be imported');
    await expect(outcome).toContainText('New domains it would create: unlisted.test');
    await shot(page, 'mail-screens-bulk-create-dry-run');
    expect(await a.get<unknown[]>('mail/users?q=new1@')).toEqual([]);
    await axeCheck(page, 'bulk create dry run');
    await card.getByRole('button', { name: 'Close' }).click();

    // Phone width: rows are cards with their actions in view; nothing scrolls sideways.
    await page.setViewportSize(MOBILE);
    await page.locator('input[aria-label="Filter by status"]').click();
    await page.getByRole('option', { name: 'Active' }).click();
    const cards = page.getByRole('list', { name: 'Mailboxes' });
    await expect(cards.getByRole('listitem').filter({ hasText: 'amy@bulk.test' })).toBeVisible();
    const edit = cards.getByRole('button', { name: 'Edit amy@bulk.test' });
    await expect(edit).toBeInViewport();
    await expectNoSideScroll(page);
    await shot(page, 'mail-screens-mailboxes-phone');
    await axeCheck(page, 'mailboxes at phone width');

    // Dark scheme.
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.evaluate(() => localStorage.setItem('theme', 'dark'));
    await page.reload();
    await expect(page.getByRole('heading', { level: 1, name: 'Mailboxes' })).toBeVisible();
    await shot(page, 'mail-screens-mailboxes-phone-dark');
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto('/mail/domains');
    await expect(page.getByRole('row').filter({ hasText: 'bulk.test' })).toBeVisible();
    await axeCheck(page, 'domains dark');
    await shot(page, 'mail-screens-domains-dark');
  });
});
