import { apiClient } from './api-client.ts';
import {
  axeCheck,
  expect,
  MOBILE,
  passwordStep,
  shot,
  signIn,
  signOutHere,
  test,
  totpCode,
} from './fixtures.ts';

const USER = { email: 'mona@mailbox.example', password: 'mona-mailbox-pass-1' };

test.describe('mailbox users on /account', () => {
  test('a mailbox user signs in, creates an app password, enrols TOTP, and signs in with the second step', async ({
    page,
    request,
  }) => {
    // Making the domain renders and checks the mail files (and a DKIM key): slow on a busy machine.
    test.setTimeout(180_000);
    const adminKey = await signIn(page);
    await apiClient(request, adminKey).addMailbox(USER);
    await signOutHere(page);

    // The mailbox's own password signs in, straight to /account: no console shell.
    await passwordStep(page, USER);
    await page.waitForURL('**/account');
    await expect(page.getByRole('heading', { name: 'My Account' })).toBeVisible();
    await expect(page.getByRole('navigation')).toHaveCount(0);
    await expect(page.getByRole('link', { name: 'Back to the dashboard' })).toHaveCount(0);
    // The shell's pages send a mailbox user back to /account.
    await page.goto('/dashboard');
    await page.waitForURL('**/account');

    await page.getByLabel('App Name').fill('Phone mail');
    await page.getByRole('button', { name: 'Create app password' }).click();
    const pw = (await page.getByTestId('new-app-password').textContent())!.trim();
    expect(pw).toMatch(/^[a-z2-9]{5}(-[a-z2-9]{5}){3}$/);
    await expect(
      page
        .getByRole('table', { name: 'App passwords' })
        .getByRole('cell', { name: 'Phone mail', exact: true }),
    ).toBeVisible();

    await page.getByLabel('Device Name').fill('My phone');
    await page.getByRole('button', { name: 'Add authenticator app' }).click();
    const secret = (await page.getByTestId('totp-secret').textContent())!.trim();
    await page.getByLabel('Verification code').fill(totpCode(secret));
    await page.getByRole('button', { name: 'Confirm', exact: true }).click();
    await expect(page.getByRole('cell', { name: 'My phone Primary' })).toBeVisible();
    await expect(page.getByText('sign in with an app password only', { exact: false })).toBeVisible();
    await axeCheck(page, '/account (mailbox user)');
    await shot(page, 'mailbox-account');
    await page.setViewportSize(MOBILE);
    await shot(page, 'mailbox-account-phone');
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.evaluate(() => localStorage.setItem('theme', 'dark'));
    await page.reload();
    await expect(page.getByRole('heading', { name: 'My Account' })).toBeVisible();
    await axeCheck(page, '/account dark');
    await shot(page, 'mailbox-account-dark');
    await page.emulateMedia({ colorScheme: 'light' });

    // Reloaded: the one-time password is gone from the page.
    await expect(page.getByTestId('new-app-password')).toHaveCount(0);
    await signOutHere(page);

    await passwordStep(page, USER);
    await expect(page.getByText('Two-step verification')).toBeVisible();
    await page.getByRole('textbox', { name: 'Authentication code' }).fill(totpCode(secret, 1));
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.waitForURL('**/account');
    await expect(page.getByRole('heading', { name: 'My Account' })).toBeVisible();
  });
});
