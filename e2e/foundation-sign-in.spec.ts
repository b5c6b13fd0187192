import { ADMIN, expect, shot, signIn, test } from './fixtures.ts';

test.describe('sign-in', () => {
  test('validation messages and a disabled button while the form is invalid', async ({ page }) => {
    await page.goto('/login');
    await expect(page).toHaveTitle('Management');
    const email = page.getByLabel('Email address');
    const password = page.getByRole('textbox', { name: 'Password', exact: true });
    const submit = page.getByRole('button', { name: 'Sign in' });
    await expect(submit).toBeDisabled();

    await email.click();
    await password.click();
    await expect(page.getByText('Email is required')).toBeVisible();

    await email.fill('not-an-email');
    await email.blur();
    await expect(page.getByText('Please enter a valid email address')).toBeVisible();
    await expect(page.getByText('Email is required')).toHaveCount(0);

    await password.fill('abc');
    await password.blur();
    await expect(page.getByText('Password must be at least 6 characters')).toBeVisible();
    await expect(submit).toBeDisabled();

    await password.fill('');
    await password.blur();
    await expect(page.getByText('Password is required')).toBeVisible();

    await email.fill(ADMIN.email);
    await password.fill('abcdef');
    await expect(page.getByText('Please enter a valid email address')).toHaveCount(0);
    await expect(page.getByText('Password must be at least 6 characters')).toHaveCount(0);
    await expect(submit).toBeEnabled();
    await shot(page, 'login-validation');
  });

  test("a wrong password shows 'Login Failed' with the server's verdict", async ({ page }) => {
    await page.goto('/login');
    await page.getByLabel('Email address').fill(ADMIN.email);
    await page.getByRole('textbox', { name: 'Password', exact: true }).fill('wrong-password-1');
    const answer = page.waitForResponse((r) => r.url().endsWith('/auth/login'));
    await page.getByRole('button', { name: 'Sign in' }).click();
    expect((await answer).status()).toBe(401);
    const box = page.getByRole('alert').filter({ hasText: 'Login Failed' });
    await expect(box).toBeVisible();
    await expect(box).toContainText('Invalid email or password.');
    await expect(page).toHaveURL(/\/login$/);
    expect(await page.evaluate(() => localStorage.getItem('api_key'))).toBeNull();
    await shot(page, 'login-failed');
  });

  test("'Signing in...' and a disabled button while the request runs, then the dashboard", async ({
    page,
  }) => {
    await page.goto('/login');
    await page.getByLabel('Email address').fill(ADMIN.email);
    await page.getByRole('textbox', { name: 'Password', exact: true }).fill(ADMIN.password);
    // Hold the real request until the busy state has been seen.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/auth/login', async (route) => {
      await held;
      await route.continue();
    });
    await page.getByRole('button', { name: 'Sign in' }).click();
    const busy = page.getByRole('button', { name: 'Signing in...' });
    await expect(busy).toBeVisible();
    await expect(busy).toBeDisabled();
    release();
    await page.waitForURL('**/dashboard');
    await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
    const stored = await page.evaluate(() => ({
      key: localStorage.getItem('api_key'),
      email: localStorage.getItem('user_email'),
    }));
    expect(stored.email).toBe(ADMIN.email);
    expect(stored.key).toMatch(/^[A-Za-z0-9_-]{22,}$/);
    const status = await page.request.get('/auth/status', {
      headers: { authorization: `Bearer ${stored.key}` },
    });
    expect(await status.json()).toMatchObject({ authenticated: true });
  });
});

test.describe('redirects', () => {
  test('the empty path and unknown paths go to /login', async ({ page }) => {
    await page.goto('/');
    await expect(page).toHaveURL(/\/login$/);
    await page.goto('/no/such/page');
    await expect(page).toHaveURL(/\/login$/);
    await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible();
  });

  test('console pages without a login go to /login', async ({ page }) => {
    for (const path of ['/dashboard', '/mail/aliases', '/system/monitoring']) {
      await page.goto(path);
      await expect(page, path).toHaveURL(/\/login$/);
    }
  });

  test('a signed-in user is sent from /login (and unknown paths) to /dashboard', async ({ page }) => {
    await signIn(page);
    await page.goto('/login');
    await expect(page).toHaveURL(/\/dashboard$/);
    await page.goto('/definitely-not-a-page');
    await expect(page).toHaveURL(/\/dashboard$/);
  });

  test('a stored key the server no longer knows is dropped at startup', async ({ page }) => {
    await page.goto('/login');
    await page.evaluate(() => {
      localStorage.setItem('api_key', 'revoked-or-invented-key-000000000000');
      localStorage.setItem('user_email', 'admin@example.com');
    });
    const check = page.waitForResponse((r) => r.url().endsWith('/auth/status'));
    await page.goto('/dashboard');
    expect(await (await check).json()).toMatchObject({ authenticated: false });
    await expect(page).toHaveURL(/\/login$/);
    await expect.poll(() => page.evaluate(() => localStorage.getItem('api_key'))).toBeNull();
  });
});

test.describe('signing out', () => {
  test('Sign out revokes the session on the server and returns to /login', async ({ page }) => {
    const key = await signIn(page);
    await expect(page.getByTestId('signed-in-email')).toHaveText(ADMIN.email);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await expect(page).toHaveURL(/\/login$/);
    expect(await page.evaluate(() => localStorage.getItem('api_key'))).toBeNull();
    const status = await page.request.get('/auth/status', { headers: { authorization: `Bearer ${key}` } });
    expect(await status.json()).toMatchObject({ authenticated: false });
    await page.goto('/dashboard');
    await expect(page).toHaveURL(/\/login$/);
  });

  test('a 401 from a revoked session returns to /login and leaves a notification', async ({ page }) => {
    const key = await signIn(page);
    await expect(page.getByTestId('system-status')).toBeVisible();
    // Revoke the page's session behind its back, as an expiry or a logout elsewhere would.
    const out = await page.request.post('/auth/logout', { headers: { authorization: `Bearer ${key}` } });
    expect(out.ok()).toBe(true);

    const refused = page.waitForResponse((r) => r.url().includes('system') && r.status() === 401);
    await page.getByRole('button', { name: 'Refresh' }).click();
    await refused;
    await expect(page).toHaveURL(/\/login$/);
    expect(await page.evaluate(() => localStorage.getItem('api_key'))).toBeNull();

    // The warning persists (warnings do by default) and is waiting in the bell after signing in again.
    await page.getByLabel('Email address').fill(ADMIN.email);
    await page.getByRole('textbox', { name: 'Password', exact: true }).fill(ADMIN.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL('**/dashboard');
    await page.getByRole('button', { name: /^Notifications/ }).click();
    const list = page.getByRole('dialog', { name: 'Notifications' });
    const signedOut = list.getByTestId('notification-item').filter({ hasText: 'Signed out' });
    await expect(signedOut).toContainText('Authentication failed. Please log in again.');
  });
});
