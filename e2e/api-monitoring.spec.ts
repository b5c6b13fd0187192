import type { Page } from '@playwright/test';
import { apiClient } from './api-client.ts';
import { axeCheck, expect, expectNoSideScroll, MOBILE, shot, signIn, test } from './fixtures.ts';

/** Reads the statistics again (the page's own calls are left out of them) and answers the total. */
async function refreshedTotal(page: Page): Promise<string> {
  const answer = page.waitForResponse((r) => r.url().includes('api-monitoring') && r.url().includes('stats'));
  await page.getByRole('button', { name: 'Refresh' }).click();
  await answer;
  await expect(page.getByRole('button', { name: 'Refresh' })).not.toHaveAttribute('data-loading', 'true');
  return (await page.getByTestId('stat-total').textContent()) ?? '';
}

test.describe('API monitoring', () => {
  test.describe.configure({ timeout: 120_000 });

  test('real traffic of both workers, rate limits and cache, idle page does not move the counts (1280 px)', async ({
    page,
    request,
  }) => {
    const key = await signIn(page);
    const api = apiClient(request, key);
    // Traffic the page must show: reads (answered by either worker), a 404 and cached list reads.
    for (let i = 0; i < 6; i++) await api.get('jobs');
    expect(await api.status('jobs/999999')).toBe(404);
    for (let i = 0; i < 3; i++) await api.get('mail/users');

    await page.goto('/api-monitoring');
    await expect(page.getByRole('heading', { level: 1, name: 'API Monitoring' })).toBeVisible();
    for (const title of ['API Statistics', 'Rate Limiting', 'Cache Management', 'API Health Status']) {
      await expect(page.getByRole('heading', { name: title })).toBeVisible();
    }
    await page.getByText('5 min', { exact: true }).click();
    await expect(page.getByRole('radio', { name: '5 min' })).toBeChecked();
    // The workers add their counts every 2 s.
    await expect
      .poll(async () => Number(await refreshedTotal(page)), { timeout: 20_000 })
      .toBeGreaterThanOrEqual(10);
    await expect(page.getByTestId('stat-client-errors')).toContainText(/[1-9]\d* client errors/);
    await expect(page.getByTestId('stat-cache-hit-rate')).not.toHaveText('—');
    await expect(page.getByRole('table', { name: 'Routes, slowest first' })).toContainText('GET /api/jobs');
    await expect(page.getByRole('table', { name: 'Latest requests' })).toContainText('/api/mail/users');
    await expect(
      page.getByTestId('response-time-trend').locator('.recharts-bar-rectangle').first(),
    ).toBeVisible();

    // Rate limits: the spec's bounds, then a saved change the buckets use.
    const perMinute = page.getByLabel('Requests per minute');
    await perMinute.fill('1001');
    await expect(page.getByText('Requests per minute must be at most 1000')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Save Limits' })).toBeDisabled();
    await perMinute.fill('500');
    await page.getByText('Limit requests per administrator').click();
    await expect(page.getByLabel('Limit requests per administrator')).toBeChecked();
    await page.getByRole('button', { name: 'Save Limits' }).click();
    await expect(page.getByText('Rate limits saved').first()).toBeVisible();
    await expect(page.getByTestId('bucket-this-minute')).toContainText('/ 500');
    const audit = await api.get<{ entries: { action: string; details: string | null }[] }>(
      'audit?action=api.rate-limit.update',
    );
    expect(JSON.stringify(audit)).toContain('api.rate-limit.update');

    // Cache settings: TTL choices and size bounds.
    await page.getByLabel('Max size').fill('5');
    await expect(page.getByText('Max size must be at least 10')).toBeVisible();
    await page.getByLabel('Max size').fill('200');
    await page.getByRole('button', { name: 'Save Cache Settings' }).click();
    await expect(page.getByText('Cache settings saved').first()).toBeVisible();
    await expect(page.getByTestId('cache-size')).toContainText('/ 200');

    await axeCheck(page, '/api-monitoring');
    await shot(page, 'api-monitoring-desktop');

    // Idle: after the last counts were flushed, the page's own refreshes move nothing.
    await page.waitForTimeout(3000);
    const before = await refreshedTotal(page);
    await page.waitForTimeout(8000);
    expect(await refreshedTotal(page)).toBe(before);

    // An API key: created here, shown once, works as a bearer key, then revoked.
    await page.getByRole('button', { name: 'Create API Key' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create API Key' });
    await dialog.getByLabel('Name').fill('e2e-reader');
    await dialog.getByRole('button', { name: 'Create Key' }).click();
    const shown = page.getByTestId('new-api-key');
    await expect(shown).toContainText('mrk_');
    const token = ((await shown.textContent()) ?? '').trim();
    await axeCheck(page, 'API key created');
    await page.getByRole('button', { name: 'Done' }).click();
    const keyed = await request.get('/api/mail/users', { headers: { Authorization: `Bearer ${token}` } });
    expect(keyed.status()).toBe(200);
    const refused = await request.get('/api/dns/zones', { headers: { Authorization: `Bearer ${token}` } });
    expect(refused.status()).toBe(403);
    const keys = page.getByRole('table', { name: 'API keys' });
    await expect(keys).toContainText('e2e-reader');
    await expect(keys.getByRole('columnheader', { name: 'Requests (last 5 minutes)' })).toBeVisible();
    // The key's own figures (either worker answered: they add their counts every 2 s).
    await expect
      .poll(
        async () => {
          await refreshedTotal(page);
          return page.getByTestId('key-requests-e2e-reader').textContent();
        },
        { timeout: 20_000 },
      )
      .toMatch(/^2\s*2 since created/);
    await expect(page.getByTestId('key-errors-e2e-reader')).toHaveText('0 / 1 / 0');
    await expect(page.getByTestId('key-times-e2e-reader')).toHaveText(
      /^[\d.]+ m?s \/ [\d.]+ m?s \/ [\d.]+ m?s$/,
    );
    await expect(page.getByTestId('key-buckets-e2e-reader')).toContainText('1 / 500 · 1 / 10000');
    await shot(page, 'api-monitoring-keys');
    await page.getByRole('button', { name: 'Revoke e2e-reader' }).click();
    await page
      .getByRole('dialog', { name: 'Revoke API key' })
      .getByRole('button', { name: 'Revoke' })
      .click();
    await expect(keys.getByRole('row').filter({ hasText: 'e2e-reader' })).toContainText('revoked');
    expect(
      (await request.get('/api/mail/users', { headers: { Authorization: `Bearer ${token}` } })).status(),
    ).toBe(401);
  });

  test('ten idle minutes on a fake clock: the page polls every 15 s, and the counts do not move', async ({
    page,
    request,
  }) => {
    const key = await signIn(page);
    const api = apiClient(request, key);
    const total = async () =>
      (await api.get<{ requestCount: number }>('api-monitoring/stats?window=1h')).requestCount;
    // The page's timers run on a clock the test moves; the server's time stays real.
    await page.clock.install();
    const seen: string[] = [];
    // The console sends paths with a slash as /api/index.php?path=… (spec §7): the route is that path.
    const routeOf = (url: string) => {
      const u = new URL(url);
      return u.pathname === '/api/index.php' ? `/api/${u.searchParams.get('path') ?? ''}` : u.pathname;
    };
    page.on('request', (r) => {
      const route = routeOf(r.url());
      if (route.startsWith('/api/') && route !== '/api/events') seen.push(`${r.method()} ${route}`);
    });
    await page.goto('/api-monitoring');
    await expect(page.getByTestId('stat-total')).toBeVisible();
    // The workers add their counts every 2 s: after that, nothing else runs on this server.
    await page.waitForTimeout(3000);
    const before = await total();
    const polled = seen.length;
    const statsPolls = () => seen.filter((r) => r.startsWith('GET /api/api-monitoring/stats')).length;
    for (let i = 0; i < 40; i++) {
      const polls = statsPolls();
      await page.clock.runFor(15_000);
      // A poll still in flight (a loaded machine) holds the next one back: the clock moves on by
      // the second until the page has asked again.
      await expect
        .poll(
          async () => {
            if (statsPolls() > polls) return true;
            await page.clock.runFor(1000);
            return false;
          },
          { timeout: 30_000 },
        )
        .toBe(true);
    }
    // 10 minutes of polling happened for real (every figure of the page, 40 times)...
    const during = seen.slice(polled);
    expect(during.filter((r) => r.startsWith('GET /api/api-monitoring/stats')).length).toBeGreaterThanOrEqual(
      40,
    );
    // The keys list polls too (on a loaded machine a read still in flight holds its next one back).
    expect(during.filter((r) => r.startsWith('GET /api/api-monitoring/keys')).length).toBeGreaterThanOrEqual(
      20,
    );
    // ...and none of it is in the figures, nor any other background refresh of the console.
    await page.waitForTimeout(3000);
    expect(await total()).toBe(before);
  });

  test('phone layout at 390 px', async ({ page, request }) => {
    await page.setViewportSize(MOBILE);
    const api = apiClient(request, await signIn(page));
    // A key with calls and a key without: the first shows its figures, the second "—".
    const used = await api.post<{ token: string }>('api-monitoring/keys', {
      name: 'e2e-phone-used',
      access: 'read',
      areas: ['mail'],
      domains: [],
      expiresInDays: 7,
      allowedAddresses: [],
    });
    await api.post('api-monitoring/keys', {
      name: 'e2e-phone-idle',
      access: 'read',
      areas: ['mail'],
      domains: [],
      expiresInDays: 7,
      allowedAddresses: [],
    });
    for (let i = 0; i < 3; i++)
      expect(
        (
          await request.get('/api/mail/users', { headers: { Authorization: `Bearer ${used.token}` } })
        ).status(),
      ).toBe(200);
    await page.goto('/api-monitoring');
    await expect(page.getByRole('heading', { level: 1, name: 'API Monitoring' })).toBeVisible();
    await expect(page.getByTestId('api-statistics')).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Cache Management' })).toBeVisible();
    await expect
      .poll(
        async () => {
          await refreshedTotal(page);
          return page.getByTestId('key-requests-e2e-phone-used').textContent();
        },
        { timeout: 20_000 },
      )
      .toMatch(/^3\s*3 since created/);
    await expect(page.getByTestId('key-errors-e2e-phone-used')).toHaveText('0 / 0 / 0');
    await expect(page.getByTestId('key-times-e2e-phone-used')).not.toHaveText('—');
    await expect(page.getByTestId('key-requests-e2e-phone-idle')).toContainText('0');
    await expect(page.getByTestId('key-errors-e2e-phone-idle')).toHaveText('—');
    await expect(page.getByTestId('key-times-e2e-phone-idle')).toHaveText('—');
    await page.getByTestId('key-requests-e2e-phone-used').scrollIntoViewIfNeeded();
    await shot(page, 'api-monitoring-keys-phone');
    await expectNoSideScroll(page);
    await axeCheck(page, '/api-monitoring phone');
    await shot(page, 'api-monitoring-phone');
  });
});
