import { apiClient as api } from './api-client.ts';
import { axeCheck, expect, MOBILE, shot, signIn, test } from './fixtures.ts';

/**
 * Issue 22, items 8, 10 and 16 on the screens: a self-signed certificate is generated through its
 * real steps with one toast and listed as self-signed (not "valid, no issues"); the mail server's
 * self-signed fallback is named on the mail certificate card; host names that are not public show
 * as warnings in the mail and DNS Settings Status, not as "passed".
 */

interface MailSettingsAnswer {
  settings: { hostname: string; mxRecords: { priority: number; host: string }[] } & Record<string, unknown>;
  version: number;
  hostWarnings: string[];
}

test.describe('certificates and host names say what they are', () => {
  test('self-signed: real steps, one toast, listed as self-signed with the warning', async ({
    page,
    request,
  }) => {
    const a = api(request, await signIn(page));
    await page.goto('/ssl/generate');
    await page.getByRole('textbox', { name: /^Domain/ }).fill('honest.example.com');
    await page.getByRole('button', { name: 'Generate Certificate' }).click();
    const progress = page.getByTestId('generation-progress');
    await expect(progress.getByText('Certificate generated')).toBeVisible({ timeout: 30_000 });
    await expect(progress.getByText('Signing the certificate with its own key (self-signed)')).toBeVisible();
    await expect(progress.getByText('Requesting certificate from CA')).toHaveCount(0);
    await expect(progress.getByText('Validating domain ownership')).toHaveCount(0);
    // One toast says it; the job's own notification goes to the bell only. Wait for the server's
    // notification of the job's end to have arrived (the bell counts it), then count the toasts.
    const toasts = page.locator('.mantine-Notification-root');
    await expect(toasts.filter({ hasText: 'Certificate generated' })).toHaveCount(1);
    await expect
      .poll(async () =>
        (await a.get<{ notifications: { title: string }[] }>('notifications')).notifications.some(
          (n) => n.title === 'Generate certificate for honest.example.com: succeeded',
        ),
      )
      .toBe(true);
    // The events stream brings it to this tab within a moment; it must not become a second toast.
    await page.waitForTimeout(1500);
    await expect(toasts).toHaveCount(1);
    await shot(page, 'issue22-ssl-generate-self-signed');

    await page.goto('/ssl/certificates?q=honest.example.com');
    const row = page.getByRole('row', { name: /honest\.example\.com/ });
    await expect(row.getByText('self-signed', { exact: true })).toBeVisible();
    await expect(row.getByText('Self-signed: not trusted by clients')).toBeVisible();
    await axeCheck(page, 'certificates with a self-signed one');
    await shot(page, 'issue22-ssl-certificates-self-signed');

    await page.goto('/ssl');
    await expect(page.getByText(/\d+ self-signed: not trusted by clients/)).toBeVisible();
    await expect(page.getByText('No issues')).toHaveCount(0);
    await shot(page, 'issue22-ssl-dashboard');
    await page.setViewportSize(MOBILE);
    await page.goto('/ssl/certificates?q=honest.example.com');
    await expect(page.getByText('Self-signed: not trusted by clients').first()).toBeVisible();
    await shot(page, 'issue22-ssl-certificates-self-signed-390');
  });

  test('host names that are not public are warnings in Settings Status; the fallback certificate is named', async ({
    page,
    request,
  }) => {
    const a = api(request, await signIn(page));
    const s = await a.get<MailSettingsAnswer>('mail/settings');
    await a.post('mail/settings', {
      settings: {
        ...s.settings,
        hostname: 'mail.localdomain',
        mxRecords: [{ priority: 10, host: 'mail.localdomain' }],
      },
      version: s.version,
    });
    await page.goto('/mail/settings');
    const status = page.getByRole('region', { name: 'Settings Status' });
    await expect(status.getByTestId('host-warnings')).toContainText(
      'MX target mail.localdomain is not a public host name',
    );
    await expect(status.getByText(/^passed, \d+ warnings?$/)).toBeVisible();
    await expect(status.getByText('passed', { exact: true })).toHaveCount(0);
    // No certificate covers mail.localdomain: the card names Mailroom's self-signed fallback.
    const card = page.getByRole('region', { name: 'Certificate' });
    await expect(card.getByTestId('fallback-certificate')).toContainText(
      "The mail server serves Mailroom's self-signed fallback certificate for",
    );
    await axeCheck(page, 'mail settings with host warnings');
    await shot(page, 'issue22-mail-settings-host-warnings');

    const dns = await a.get<Record<string, unknown>>('dns/settings');
    await a.post('dns/settings', { ...dns, primaryNameserver: 'ns1.localdomain' });
    await page.goto('/dns/settings');
    const dnsStatus = page.getByRole('region', { name: 'Settings Status' });
    await expect(dnsStatus.getByText(/Check passed, \d+ warnings?/).first()).toBeVisible();
    await expect(dnsStatus).toContainText(
      'Primary name server (NS target) ns1.localdomain is not a public host name',
    );
    await shot(page, 'issue22-dns-settings-host-warnings');
    await page.setViewportSize(MOBILE);
    await page.goto('/mail/settings');
    await expect(page.getByTestId('host-warnings')).toBeVisible();
    await shot(page, 'issue22-mail-settings-host-warnings-390');
  });

  test('SSL settings list the ACME accounts, each with Reset Account', async ({ page }) => {
    await signIn(page);
    await page.goto('/ssl/settings');
    const card = page.getByRole('region', { name: 'ACME Accounts', exact: true });
    await expect(card).toContainText('registers a new one once and retries the order');
    await expect(card.getByText('No ACME account yet: the first ACME order registers one.')).toBeVisible();
    await axeCheck(page, 'ssl settings with ACME accounts');
    await shot(page, 'issue22-ssl-settings-acme-accounts');
  });
});
