import { readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { apiClient } from './api-client.ts';
import { MOBILE, axeCheck, expect, expectNoSideScroll, shot, signIn, test } from './fixtures.ts';

async function screens(page: Page, name: string): Promise<void> {
  await axeCheck(page, `${name} (1280)`);
  await shot(page, `${name}-desktop`);
  await page.setViewportSize(MOBILE);
  await expectNoSideScroll(page);
  await axeCheck(page, `${name} (390)`);
  await shot(page, `${name}-phone`);
  await page.setViewportSize({ width: 1280, height: 800 });
}

test.describe('bulk operations', () => {
  test.setTimeout(240_000);
  // Each run ends with a job notification for the administrator: later specs of this worker's
  // server expect an empty bell.
  test.afterEach(async ({ page, request }) => {
    const key = await page.evaluate(() => localStorage.getItem('api_key')).catch(() => null);
    if (key) await apiClient(request, key).post('notifications/clear', { which: 'all' });
  });

  test('enable and configure an operation (kept per administrator), plan a CSV, run it, see the results', async ({
    page,
    request,
  }) => {
    const key = await signIn(page);
    const api = apiClient(request, key);
    await api.post('mail/domains/add', { domain: 'bulk-e2e.example' });
    await api.post('mail/users/add', { email: 'taken@bulk-e2e.example', password: 'taken-password-1' });

    await page.goto('/bulk-operations');
    await expect(page.getByRole('heading', { level: 1, name: 'Bulk Operations' })).toBeVisible();
    for (const h of ['Active Operations', 'Available Operations', 'Bulk Actions', 'Operation History'])
      await expect(page.getByRole('heading', { name: h })).toBeVisible();
    await expect(page.getByText('No operation history available')).toBeVisible();
    const mail = page.getByRole('button', { name: /^Mail/ });
    await expect(mail).toContainText('0 enabled');
    await expect(mail).toBeDisabled();
    // The web card is disabled with its reason.
    const web = page
      .getByRole('region', { name: 'Deploy Web Applications' })
      .or(page.locator('[aria-label="Deploy Web Applications"]'));
    await expect(web.getByText(/^Not available yet/)).toBeVisible();
    await expect(web.getByRole('checkbox', { name: 'Enabled' })).toBeDisabled();
    await screens(page, 'bulk-operations-empty');

    const card = page.locator('[aria-label="Create Mailboxes"]');
    await expect(card.getByRole('button', { name: 'Configure' })).toBeDisabled();
    await card.getByRole('checkbox', { name: 'Enabled' }).click();
    await expect(card.getByRole('checkbox', { name: 'Enabled' })).toBeChecked();
    await expect(mail).toContainText('1 enabled');
    await card.getByRole('button', { name: 'Configure' }).click();
    const modal = page.getByRole('dialog', { name: 'Configure Operation' });
    await expect(modal.getByRole('textbox', { name: 'Target Items' })).toBeVisible();
    const batch = modal.getByRole('textbox', { name: 'Batch Size' });
    await batch.fill('101');
    await expect(modal.getByText('Batch Size must be at most 100')).toBeVisible();
    await expect(modal.getByRole('button', { name: 'Save' })).toBeDisabled();
    await batch.fill('2');
    await modal.getByRole('button', { name: 'Save' }).click();
    await expect(modal).toBeHidden();

    // Saved on the server for this administrator: a reload keeps both choices.
    await page.reload();
    await expect(card.getByRole('checkbox', { name: 'Enabled' })).toBeChecked();
    const ops = await api.get<{
      operations: { id: string; enabled: boolean; config: { batchSize: number } }[];
    }>('bulk/operations');
    expect(ops.operations.find((o) => o.id === 'mail.mailbox.create')).toMatchObject({
      enabled: true,
      config: { batchSize: 2 },
    });

    // Plan: three to create, one that exists, one bad row; nothing changes yet.
    await mail.click();
    const form = page.getByRole('dialog', { name: 'Plan a bulk operation' });
    await form
      .getByRole('textbox', { name: 'or paste the CSV' })
      .fill(
        [
          'email,password',
          'one@bulk-e2e.example,password-one-1',
          'two@bulk-e2e.example,password-two-2',
          'three@bulk-e2e.example,password-three-3',
          'taken@bulk-e2e.example,password-taken-4',
          'not-an-address,password-five-5',
        ].join('\n'),
      );
    await form.getByRole('button', { name: 'Make plan' }).click();
    const plan = page.getByLabel('Plan', { exact: true });
    await expect(plan.getByText('Create: 3')).toBeVisible();
    await expect(plan.getByText('Skip: exists: 1')).toBeVisible();
    await expect(plan.getByText('Invalid: 1')).toBeVisible();
    await expect(plan.getByText(/row 6: email: /).first()).toBeVisible();
    expect(await api.total('mail/users?domain=bulk-e2e.example')).toBe(1);
    await screens(page, 'bulk-operations-plan');

    await plan.getByRole('button', { name: /^Start run \(3 items\)/ }).click();
    const history = page
      .getByRole('region', { name: 'Operation history' })
      .or(page.locator('#bulk-history').locator('..').locator('..'));
    await expect(page.getByText('completed').first()).toBeVisible({ timeout: 60_000 });
    expect(await api.total('mail/users?domain=bulk-e2e.example')).toBe(4);
    await expect(history.getByText('Create Mailboxes').first()).toBeVisible();

    // Details: per-item results and the results download.
    await page.getByRole('button', { name: 'Details' }).first().click();
    const details = page.getByRole('dialog', { name: 'Operation details' });
    await expect(details.getByText('Succeeded', { exact: true }).first()).toBeVisible();
    await expect(details.getByText('one@bulk-e2e.example').first()).toBeVisible();
    // Each item's result as the ledger holds it (not the plan's "pending").
    await expect(details.getByText('succeeded', { exact: true }).first()).toBeVisible();
    await expect(details.getByText('pending', { exact: true })).toHaveCount(0);
    const download = page.waitForEvent('download');
    await details.getByRole('button', { name: 'Download results (CSV)' }).click();
    const file = await download;
    expect(file.suggestedFilename()).toMatch(/^bulk-operation-\d+-results\.csv$/);
    const text = readFileSync(await file.path(), 'utf8');
    expect(text.split('\r\n')[0]).toBe('seq,item,action,result,errorCode,message');
    expect(text).toContain('one@bulk-e2e.example,create,succeeded');
    expect(text).toContain('not-an-address,invalid,skipped');
    await screens(page, 'bulk-operations-details');
    await details
      .getByRole('button', { name: 'Close' })
      .or(page.locator('.mantine-Modal-close'))
      .first()
      .click();
  });

  test('the mailbox list hands its selection to a delete, which needs the count typed', async ({
    page,
    request,
  }) => {
    const key = await signIn(page);
    const api = apiClient(request, key);
    await api.post('mail/domains/add', { domain: 'bulk-del.example' });
    for (const n of ['a', 'b', 'c'])
      await api.post('mail/users/add', { email: `${n}@bulk-del.example`, password: `password-${n}-long` });
    await page.goto('/mail/mailboxes?q=bulk-del.example');
    await page.getByRole('checkbox', { name: /a@bulk-del\.example/ }).check();
    await page.getByRole('checkbox', { name: /b@bulk-del\.example/ }).check();
    await page.getByRole('button', { name: 'Bulk operation…' }).click();
    await expect(page).toHaveURL(/\/bulk-operations/);
    const form = page.getByRole('dialog', { name: 'Plan a bulk operation' });
    await expect(form.getByText('Delete Mailboxes', { exact: true })).toBeVisible();
    await expect(form.getByRole('textbox', { name: 'Selected items' })).toHaveValue(
      'a@bulk-del.example\nb@bulk-del.example',
    );
    await form.getByRole('button', { name: 'Make plan' }).click();
    const plan = page.getByLabel('Plan', { exact: true });
    await expect(plan.getByText('Delete: 2')).toBeVisible();
    const start = plan.getByRole('button', { name: /^Start run/ });
    await expect(start).toBeDisabled();
    await plan.getByRole('textbox', { name: 'Type 2 to delete 2 items' }).fill('2');
    await expect(start).toBeEnabled();
    await page.setViewportSize(MOBILE);
    await expectNoSideScroll(page);
    await shot(page, 'bulk-operations-delete-plan-phone');
    await page.setViewportSize({ width: 1280, height: 800 });
    await start.click();
    await expect
      .poll(async () => api.total('mail/users?domain=bulk-del.example'), { timeout: 60_000 })
      .toBe(1);
  });

  test('the alias list hands its selection and search to Delete Aliases, which needs the count typed', async ({
    page,
    request,
  }) => {
    const key = await signIn(page);
    const api = apiClient(request, key);
    const domain = 'bulk-alias.example';
    await api.post('mail/domains/add', { domain });
    for (const n of ['x1', 'x2', 'x3'])
      await api.post('mail/aliases/add', { source: `${n}@${domain}`, destination: `${n}@elsewhere.test` });
    // Its three, and Mailroom's required postmaster@ and abuse@.
    expect(await api.total(`mail/aliases?q=${domain}`)).toBe(5);

    await page.goto(`/mail/aliases?q=${domain}`);
    await page.getByRole('checkbox', { name: new RegExp(`x1@${domain}`) }).check();
    await page.getByRole('checkbox', { name: new RegExp(`x2@${domain}`) }).check();
    const bar = page.getByRole('region', { name: 'Selected aliases' });
    await expect(bar.getByText('2 aliases selected')).toBeVisible();
    const bulk = bar.getByRole('button', { name: 'Bulk operation…' });
    await expect(bulk).toBeVisible();
    await screens(page, 'aliases-selection-bulk');
    await bulk.click();

    await expect(page).toHaveURL(/\/bulk-operations/);
    const form = page.getByRole('dialog', { name: 'Plan a bulk operation' });
    await expect(form.getByText('Delete Aliases', { exact: true })).toBeVisible();
    await expect(form.getByRole('textbox', { name: 'Selected items' })).toHaveValue(
      `x1@${domain}\nx2@${domain}`,
    );
    // The list's search came along for a filtered target.
    await form.getByText('Filtered', { exact: true }).click();
    await expect(form.getByRole('textbox', { name: 'Search' })).toHaveValue(domain);
    await form.getByText('Selected', { exact: true }).click();
    await form.getByRole('button', { name: 'Make plan' }).click();

    const plan = page.getByLabel('Plan', { exact: true });
    await expect(plan.getByText('Delete: 2')).toBeVisible();
    const start = plan.getByRole('button', { name: /^Start run/ });
    await expect(start).toBeDisabled();
    await plan.getByRole('textbox', { name: 'Type 2 to delete 2 items' }).fill('2');
    await expect(start).toBeEnabled();
    // Nothing deleted by the plan.
    expect(await api.total(`mail/aliases?q=${domain}`)).toBe(5);
    await screens(page, 'bulk-operations-delete-aliases-plan');
    await start.click();
    await expect.poll(async () => api.total(`mail/aliases?q=${domain}`), { timeout: 60_000 }).toBe(3);
    const left = await api.get<{ source: string }[]>(`mail/aliases?q=${domain}`);
    expect(left.map((a) => a.source).sort()).toEqual([
      `abuse@${domain}`,
      `postmaster@${domain}`,
      `x3@${domain}`,
    ]);
  });
});
