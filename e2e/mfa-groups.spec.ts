import type { APIRequestContext } from '@playwright/test';
import { axeCheck, expect, shot, signIn, test } from './fixtures.ts';

const MOBILE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 800 };
const DA = { email: 'da-mfa@example.com', password: 'domain-admin-mfa-pass' };
const POLICY = 'Domain admins need MFA';

function api(request: APIRequestContext, key: string) {
  const headers = { Authorization: `Bearer ${key}` };
  return {
    async post(path: string, data: unknown) {
      const res = await request.post(`/api/${path}`, { headers, data });
      expect(res.ok(), `${path}: ${res.status()} ${await res.text()}`).toBe(true);
    },
    async removePolicy(name: string) {
      const list = (await (await request.get('/api/mfa/policies', { headers })).json()) as {
        id: number;
        name: string;
      }[];
      for (const p of list.filter((x) => x.name === name))
        expect((await request.delete(`/api/mfa/policies/${p.id}`, { headers })).ok()).toBe(true);
    },
  };
}

test.describe('MFA policies per group', () => {
  test('a "Domain administrators" policy made in the form sends a domain admin to enrolment', async ({
    page,
    request,
  }) => {
    test.setTimeout(120_000);
    const key = await signIn(page);
    const admin = api(request, key);
    // A mail domain to pick from, and its domain administrator (no enrolment asked of it by hand).
    await admin.post('mail/users/add', {
      email: 'someone@groups.test',
      password: 'mailbox-password-1',
      quota: 0,
      createDomain: true,
    });
    await admin.post('accounts', { ...DA, role: 'domain-admin', domains: ['groups.test'] });

    try {
      await page.goto('/mfa/management');
      await page.getByRole('tab', { name: /Policies/ }).click();
      await page.getByRole('button', { name: 'Add Policy' }).click();
      const dialog = page.getByRole('dialog', { name: 'Add MFA Policy' });
      await dialog.getByLabel('Policy Name').fill(POLICY);
      await expect(dialog.getByRole('radio', { name: 'All administrators' })).toBeChecked();
      // "Users of a domain" offers the mail domains.
      await dialog.getByRole('radio', { name: 'Users of a domain' }).check();
      // The first mail domain is picked (other specs on this server add domains before groups.test).
      await expect(dialog.getByRole('textbox', { name: 'Domain' })).not.toHaveValue('');
      await axeCheck(page, 'Add MFA Policy (users of a domain)');
      await shot(page, 'mfa-policy-form-domain');
      await dialog.getByRole('radio', { name: 'Domain administrators' }).check();
      await expect(dialog.getByRole('textbox', { name: 'Domain' })).toHaveCount(0);
      await axeCheck(page, 'Add MFA Policy');
      await shot(page, 'mfa-policy-form');
      await page.emulateMedia({ colorScheme: 'dark' });
      await axeCheck(page, 'Add MFA Policy (dark)');
      await shot(page, 'mfa-policy-form-dark');
      await page.setViewportSize(MOBILE);
      await shot(page, 'mfa-policy-form-phone-dark');
      await page.emulateMedia({ colorScheme: 'light' });
      await shot(page, 'mfa-policy-form-phone');
      await page.setViewportSize(DESKTOP);
      await dialog.getByRole('button', { name: 'Save' }).click();
      await expect(dialog).toBeHidden();
      await expect(page.getByRole('cell', { name: new RegExp(`^${POLICY}`) })).toContainText(
        'Domain administrators · MFA required',
      );

      // The domain administrator signs in and lands on enrolment.
      await page.evaluate(() => localStorage.clear());
      await page.context().clearCookies();
      await page.goto('/login');
      await page.getByLabel('Email address').fill(DA.email);
      await page.getByRole('textbox', { name: 'Password', exact: true }).fill(DA.password);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.waitForURL('**/account?enrol=1');
      await expect(page.getByRole('heading', { name: 'My Account' })).toBeVisible();
      await expect(page.getByRole('alert').filter({ hasText: 'Second factor required' })).toBeVisible();
      await expect(page.getByRole('button', { name: 'Add authenticator app' })).toBeVisible();
    } finally {
      // The worker's server is shared with other files: leave no policy behind.
      await admin.removePolicy(POLICY);
    }
  });
});
