import { apiClient } from './api-client.ts';
import { axeCheck, expect, expectNoSideScroll, MOBILE, shot, signIn, test } from './fixtures.ts';

// Issue 22 item 6: an administrator sees and revokes a mailbox's app passwords where the mailbox is
// managed (its edit dialog); a new password revokes them all and ends the mailbox's sessions.

const USER = { email: 'nora@apps.example', password: 'nora-mailbox-pass-1' };

test('an administrator lists and revokes a mailbox app password; a new password revokes the rest', async ({
  page,
  request,
}) => {
  test.setTimeout(180_000);
  const adminKey = await signIn(page);
  await apiClient(request, adminKey).addMailbox(USER);
  // The owner signs in (the API, as the console would) and makes two app passwords.
  const login = await request.post('/auth/login', { data: USER });
  const userKey = ((await login.json()) as { api_key: string }).api_key;
  const asUser = { Authorization: `Bearer ${userKey}` };
  for (const name of ['Phone mail', 'Laptop Thunderbird']) {
    const res = await request.post('/api/account/app-passwords', { headers: asUser, data: { name } });
    expect(res.ok()).toBe(true);
  }

  await page.goto(`/mail/mailboxes?q=${encodeURIComponent(USER.email)}`);
  const row = page.getByRole('row').filter({ hasText: USER.email });
  await row.getByRole('button', { name: `Edit ${USER.email}` }).click();
  const modal = page.getByRole('dialog', { name: 'Edit Mailbox' });
  const table = modal.getByRole('table', { name: `App passwords of ${USER.email}` });
  await expect(table.getByRole('cell', { name: 'Phone mail', exact: true })).toBeVisible();
  await expect(table.getByRole('cell', { name: 'Laptop Thunderbird', exact: true })).toBeVisible();
  await axeCheck(page, 'mailbox edit dialog with app passwords');
  await table.scrollIntoViewIfNeeded();
  await shot(page, 'mail-mailbox-app-passwords');

  await modal.getByRole('button', { name: 'Revoke app password Phone mail' }).click();
  const confirm = page.getByRole('dialog').filter({ hasText: 'Revoke the app password "Phone mail"' });
  await confirm.getByRole('button', { name: 'Revoke', exact: true }).click();
  await expect(table.getByRole('cell', { name: 'Phone mail', exact: true })).toBeHidden();
  const mine = await request.get('/api/account/app-passwords', { headers: asUser });
  expect(((await mine.json()) as { items: { name: string }[] }).items.map((i) => i.name)).toEqual([
    'Laptop Thunderbird',
  ]);

  await page.setViewportSize(MOBILE);
  await expect(modal.getByText('Laptop Thunderbird')).toBeVisible();
  await modal.getByText('Laptop Thunderbird').scrollIntoViewIfNeeded();
  await expectNoSideScroll(page);
  await shot(page, 'mail-mailbox-app-passwords-phone');
  await page.setViewportSize({ width: 1280, height: 800 });

  // A new password: the list empties and the owner's session has ended.
  await modal.getByLabel('New Password').fill('nora-new-password-2');
  await modal.getByRole('button', { name: 'Set Password' }).click();
  await expect(modal.getByText('No app passwords')).toBeVisible();
  expect((await request.get('/api/account/app-passwords', { headers: asUser })).status()).toBe(401);
});
