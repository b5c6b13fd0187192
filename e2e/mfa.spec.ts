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

  test('recovery: "Lost my device" on the sign-in page, approved by an administrator', async ({
    page,
    request,
  }) => {
    const adminKey = await signIn(page);
    const user = { email: 'lost-device@example.com', password: 'lost-device-password' };
    await api(request, adminKey).post('accounts', user);
    // The user enrols an authenticator through the API, as their app would.
    const login = await request.post('/auth/login', { data: user });
    const userApi = api(request, ((await login.json()) as { api_key: string }).api_key);
    const start = await userApi.post<{ deviceId: number; secret: string }>('account/mfa/totp', {
      deviceName: 'Old phone',
    });
    await userApi.post(`account/mfa/totp/${start.deviceId}/confirm`, { code: totpCode(start.secret) });
    await signOutHere(page);

    await passwordStep(page, user);
    await expect(page.getByText('Two-step verification')).toBeVisible();
    await page.getByRole('button', { name: 'Lost my device' }).click();
    await page.getByLabel('Reason').fill('My phone was stolen');
    await axeCheck(page, '/login lost my device');
    await shot(page, 'mfa-lost-device');
    await page.getByRole('button', { name: 'Send request' }).click();
    await expect(page.getByRole('status')).toContainText('administrators have been asked');

    await signIn(page);
    await page.goto('/mfa/recovery');
    await expect(page.getByRole('heading', { name: 'MFA Recovery' })).toBeVisible();
    await expect(page.getByRole('cell', { name: 'My phone was stolen' })).toBeVisible();
    await axeCheck(page, '/mfa/recovery');
    await shot(page, 'mfa-recovery');
    await page.getByRole('button', { name: `Approve the request of ${user.email}` }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Approve' }).click();
    await expect(page.getByText(/by admin@example\.com/)).toBeVisible();
    const rec = await api(request, adminKey).get<{
      requests: { userEmail: string; status: string; resolvedBy: string }[];
    }>('mfa/recovery');
    expect(rec.requests.find((r) => r.userEmail === user.email)).toMatchObject({
      status: 'approved',
      resolvedBy: 'admin@example.com',
    });
    await signOutHere(page);

    // Factors reset: the password signs in and the account is taken to enrolment.
    await passwordStep(page, user);
    await page.waitForURL('**/account?enrol=1');
    await expect(page.getByText('Second factor required')).toBeVisible();
    await axeCheck(page, '/account enrolment');
    await shot(page, 'mfa-enrol-required');
  });

  test('a passkey on Chromium’s virtual authenticator: register, then sign in with it', async ({
    page,
    request,
    baseURL,
  }) => {
    const adminKey = await signIn(page);
    const user = { email: 'passkey-user@example.com', password: 'passkey-user-password' };
    await api(request, adminKey).post('accounts', user);
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('WebAuthn.enable');
    await cdp.send('WebAuthn.addVirtualAuthenticator', {
      options: {
        protocol: 'ctap2',
        transport: 'usb',
        hasResidentKey: true,
        hasUserVerification: true,
        isUserVerified: true,
        automaticPresenceSimulation: true,
      },
    });
    // WebAuthn needs a host name, not an IP address: the same server as http://localhost:<port>.
    const origin = baseURL!.replace('127.0.0.1', 'localhost');
    await page.goto(`${origin}/login`);
    await page.getByLabel('Email address').fill(user.email);
    await page.getByRole('textbox', { name: 'Password', exact: true }).fill(user.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL('**/dashboard');
    await page.goto(`${origin}/account`);
    await page.getByLabel('Key Name').fill('Virtual key');
    await page.getByRole('button', { name: 'Add security key' }).click();
    await expect(page.getByRole('cell', { name: 'Virtual key Primary' })).toBeVisible();
    await expect(page.getByRole('cell', { name: 'Hardware Token' })).toBeVisible();
    await page.evaluate(() => localStorage.clear());
    await page.context().clearCookies();

    await page.goto(`${origin}/login`);
    await page.getByLabel('Email address').fill(user.email);
    await page.getByRole('textbox', { name: 'Password', exact: true }).fill(user.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('button', { name: 'Use a passkey or security key' }).click();
    await page.waitForURL('**/dashboard');
    const devices = await api(request, adminKey).get<{ deviceName: string; lastUsed: string | null }[]>(
      'mfa/devices',
    );
    expect(devices.find((d) => d.deviceName === 'Virtual key')?.lastUsed).toBeTruthy();
  });

  test('the MFA screens show the real state (desktop, phone, light and dark)', async ({ page }) => {
    await signIn(page);
    for (const [path, heading, name] of [
      ['/mfa', 'Multi-Factor Authentication', 'mfa-dashboard'],
      ['/mfa/management', 'MFA Management', 'mfa-management'],
      ['/mfa/recovery', 'MFA Recovery', 'mfa-recovery-tabs'],
    ] as const) {
      await page.goto(path);
      await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
      await expect(page.getByRole('alert')).toHaveCount(0);
      await axeCheck(page, path);
      await shot(page, name);
      await page.emulateMedia({ colorScheme: 'dark' });
      await axeCheck(page, `${path} (dark)`);
      await shot(page, `${name}-dark`);
      await page.emulateMedia({ colorScheme: 'light' });
      await page.setViewportSize(MOBILE);
      await shot(page, `${name}-phone`);
      await page.setViewportSize({ width: 1280, height: 800 });
    }
    await page.goto('/mfa/management');
    await page.getByRole('tab', { name: /Policies/ }).click();
    await page.getByRole('button', { name: 'Add Policy' }).click();
    await page.getByLabel('Policy Name').fill('Administrators');
    // Required, it would reach this administrator's own session at once (it has no factor): see the
    // test below. Here the screens are the subject.
    await page.getByRole('dialog').getByText('Require MFA', { exact: true }).click();
    await expect(page.getByRole('dialog').getByRole('switch', { name: 'Require MFA' })).not.toBeChecked();
    await page.getByRole('dialog').getByRole('button', { name: 'Save' }).click();
    await expect(page.getByRole('cell', { name: /^Administrators/ })).toBeVisible();
    await page.getByRole('tab', { name: /Devices/ }).click();
    await axeCheck(page, '/mfa/management devices');
    await shot(page, 'mfa-management-devices');
    await page.getByRole('tab', { name: /Policies/ }).click();
    await shot(page, 'mfa-management-policies');
    await page.getByRole('button', { name: 'Delete Administrators' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    await expect(page.getByText('No policies found')).toBeVisible();
  });

  test('MFA made required reaches a signed-in account: its next request leads to enrolment', async ({
    page,
    request,
  }) => {
    const adminKey = await signIn(page);
    const user = { email: 'mfa-next-request@example.com', password: 'mfa-next-request-password' };
    await api(request, adminKey).post('accounts', user);
    await signOutHere(page);
    await signIn(page, user);
    await page.goto('/mail/mailboxes');
    await expect(page.getByRole('heading', { level: 1, name: 'Mailboxes' })).toBeVisible();
    // An administrator requires MFA for the account while it is signed in.
    await api(request, adminKey).post('mfa/enable', { email: user.email });
    await page.reload();
    await page.waitForURL('**/account?enrol=1');
    await expect(page.getByText('Second factor required')).toBeVisible();
    await shot(page, 'mfa-enrol-forced');
  });
});
