import type { APIRequestContext, Page } from '@playwright/test';
import { Secret, TOTP } from 'otpauth';
import { axeCheck, expect, shot, signIn, test } from './fixtures.ts';

const MOBILE = { width: 390, height: 844 };

function api(request: APIRequestContext, key: string) {
  const headers = { Authorization: `Bearer ${key}` };
  const ok = async <T>(res: Awaited<ReturnType<APIRequestContext['get']>>): Promise<T> => {
    expect(res.ok(), `${res.url()} answered ${res.status()}: ${await res.text()}`).toBe(true);
    return (await res.json()) as T;
  };
  return {
    get: async <T>(path: string) => ok<T>(await request.get(`/api/${path}`, { headers })),
    post: async <T>(path: string, data?: unknown) =>
      ok<T>(await request.post(`/api/${path}`, { headers, data: data ?? {} })),
  };
}

/** The code an authenticator app would show `offsetSteps` steps from now. */
function totpCode(secret: string, offsetSteps = 0): string {
  return new TOTP({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30 }).generate({
    timestamp: Date.now() + offsetSteps * 30_000,
  });
}

async function passwordStep(page: Page, who: { email: string; password: string }): Promise<void> {
  await page.goto('/login');
  await page.getByLabel('Email address').fill(who.email);
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill(who.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

async function signOutHere(page: Page): Promise<void> {
  await page.evaluate(() => localStorage.clear());
  await page.context().clearCookies();
}

test.describe('multi-factor authentication', () => {
  test('enrol an authenticator app, then sign in with the second step', async ({ page, request }) => {
    const adminKey = await signIn(page);
    const user = { email: 'totp-user@example.com', password: 'totp-user-password' };
    await api(request, adminKey).post('accounts', user);
    await signOutHere(page);

    await signIn(page, user);
    await page.goto('/account');
    await expect(page.getByRole('heading', { name: 'My Account' })).toBeVisible();
    await page.getByLabel('Device Name').fill('My phone');
    await page.getByRole('button', { name: 'Add authenticator app' }).click();
    await expect(page.getByRole('img', { name: 'QR code for the authenticator app' })).toBeVisible();
    const secret = (await page.getByTestId('totp-secret').textContent())!.trim();
    expect(secret).toMatch(/^[A-Z2-7]+$/);
    await shot(page, 'mfa-account-enrol');
    await page.getByLabel('Verification code').fill(totpCode(secret));
    await page.getByRole('button', { name: 'Confirm', exact: true }).click();
    await expect(page.getByRole('cell', { name: 'My phone Primary' })).toBeVisible();
    await page.getByRole('button', { name: 'Generate Backup Codes' }).click();
    await expect(page.getByTestId('backup-codes').locator('code')).toHaveCount(10);
    await axeCheck(page, '/account');
    await shot(page, 'mfa-account');
    await page.setViewportSize(MOBILE);
    await shot(page, 'mfa-account-phone');
    await page.setViewportSize({ width: 1280, height: 800 });
    await signOutHere(page);

    // The password alone is not enough any more.
    await passwordStep(page, user);
    await expect(page.getByText('Two-step verification')).toBeVisible();
    await expect(page.getByRole('textbox', { name: 'Authentication code' })).toBeVisible();
    await page.getByRole('textbox', { name: 'Authentication code' }).fill('000000');
    await page.getByRole('button', { name: 'Verify' }).click();
    await expect(page.getByRole('alert')).toContainText('Invalid verification code.');
    await axeCheck(page, '/login second step');
    await shot(page, 'mfa-login-second-step');
    // The enrolment code was spent: the next step's code (accepted within ±1 step) signs in.
    await page.getByRole('textbox', { name: 'Authentication code' }).fill(totpCode(secret, 1));
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.waitForURL('**/dashboard');
    await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
  });
});
