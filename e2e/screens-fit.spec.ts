import type { APIRequestContext, Page } from '@playwright/test';
import { expect, MOBILE, shot, signIn, test } from './fixtures.ts';

/** Issue 22 item 18: the screens fit at 1280, 1366 and 390 px, measured on the elements' boxes. */

function api(request: APIRequestContext, key: string) {
  const headers = { Authorization: `Bearer ${key}` };
  return {
    get: async <T>(path: string) => {
      // apt reads its lists for `updates`: seconds, more on a loaded machine.
      const res = await request.get(`/api/${path}`, { headers, timeout: 60_000 });
      expect(res.ok(), `${path}: ${res.status()}`).toBe(true);
      return (await res.json()) as T;
    },
    post: async <T>(path: string, data: unknown) => {
      const res = await request.post(`/api/${path}`, { headers, data });
      expect(res.ok(), `${path}: ${res.status()} ${await res.text()}`).toBe(true);
      return (await res.json()) as T;
    },
  };
}

/** The page itself never scrolls sideways (a wide table may scroll inside its own region). */
async function expectNoPageOverflow(page: Page, what: string): Promise<void> {
  const { scroll, client } = await page.evaluate(() => ({
    scroll: document.documentElement.scrollWidth,
    client: document.documentElement.clientWidth,
  }));
  expect(scroll, `${what}: the page is ${scroll} px wide in a ${client} px window`).toBeLessThanOrEqual(
    client,
  );
}

/**
 * Every `name` button is inside the window and inside its table's scroll region: seen without
 * scrolling sideways.
 */
async function expectButtonsInView(page: Page, name: RegExp, what: string): Promise<void> {
  const boxes = await page.getByRole('button', { name }).evaluateAll((els) =>
    els.map((el) => {
      const r = el.getBoundingClientRect();
      const region = el.closest('[role="region"]');
      const rr = region?.getBoundingClientRect();
      return { right: r.right, left: r.left, regionRight: rr?.right ?? null, window: window.innerWidth };
    }),
  );
  expect(boxes.length, `${what}: buttons found`).toBeGreaterThan(0);
  for (const b of boxes) {
    expect(b.right, `${what}: a button ends at ${b.right} in a ${b.window} px window`).toBeLessThanOrEqual(
      b.window,
    );
    if (b.regionRight !== null)
      expect(b.right, `${what}: a button ends past its table's visible part`).toBeLessThanOrEqual(
        b.regionRight + 0.5,
      );
  }
}

/** Each element shows its whole text: nothing cut (scrollWidth beyond clientWidth) or ellipsised. */
async function expectWholeText(page: Page, selector: string, texts: string[], what: string): Promise<void> {
  const found = await page.locator(selector).evaluateAll((els) =>
    els.map((el) => {
      const label = (el.querySelector('.mantine-Badge-label') ?? el) as HTMLElement;
      return {
        text: el.textContent ?? '',
        cut: label.scrollWidth > label.clientWidth + 0.5 || el.scrollWidth > el.clientWidth + 0.5,
        width: el.getBoundingClientRect().width,
      };
    }),
  );
  for (const t of texts) {
    const hit = found.find((f) => f.text === t);
    expect(hit, `${what}: "${t}" shown`).toBeTruthy();
    expect(hit!.cut, `${what}: "${t}" cut (badge ${hit!.width} px wide)`).toBe(false);
  }
}

/** Each element's text sits on one line (its text's rectangles share one top). */
async function expectOneLine(page: Page, selector: string, what: string): Promise<number> {
  const lines = await page.locator(selector).evaluateAll((els) =>
    els.map((el) => {
      const range = document.createRange();
      range.selectNodeContents(el);
      const tops = new Set(Array.from(range.getClientRects(), (r) => Math.round(r.top)));
      return { text: el.textContent, lines: tops.size };
    }),
  );
  for (const l of lines) expect(l.lines, `${what}: "${l.text}" on ${l.lines} lines`).toBe(1);
  return lines.length;
}

/** No table on the page's main part: the lists are phone cards. */
async function expectCards(page: Page, what: string): Promise<void> {
  await expect(page.locator('main table'), `${what}: a wide table at 390 px`).toHaveCount(0);
}

test.describe('screens fit (issue 22 item 18)', () => {
  test.setTimeout(240_000);

  test('/ssl: the Actions column is seen whole at 1280 and 1366 px; cards at 390', async ({
    page,
    request,
  }) => {
    const key = await signIn(page);
    const a = api(request, key);
    const job = await a.post<{ jobId: number }>('ssl/certificates/generate', {
      domain: 'fit-a-rather-long-name.example.com',
      certificateType: 'DV',
      keyAlgorithm: 'ECDSA',
      keySize: 256,
      signatureAlgorithm: 'SHA256',
      validityPeriod: 90,
      challengeType: 'http',
      method: 'self-signed',
    });
    await expect
      .poll(async () => (await a.get<{ state: string }>(`jobs/${job.jobId}`)).state, { timeout: 60_000 })
      .toBe('succeeded');
    for (const width of [1280, 1366]) {
      await page.setViewportSize({ width, height: 900 });
      for (const path of ['/ssl', '/ssl/certificates']) {
        await page.goto(path);
        await expect(page.getByRole('button', { name: /^Delete fit-a-rather/ })).toBeVisible();
        await expectNoPageOverflow(page, `${path} at ${width}`);
        await expectButtonsInView(page, /^(View|Renew|Delete) fit-a-rather/, `${path} at ${width}`);
        await shot(page, `fit-ssl${path === '/ssl' ? '' : '-certificates'}-${width}`);
      }
    }
    await page.setViewportSize(MOBILE);
    await page.goto('/ssl');
    await expect(page.getByRole('button', { name: /^Delete fit-a-rather/ })).toBeVisible();
    await expectNoPageOverflow(page, '/ssl at 390');
    await expectButtonsInView(page, /^Delete fit-a-rather/, '/ssl at 390');
    await shot(page, 'fit-ssl-390');
  });

  test('MFA policies: the status badge reads whole at 1280 and 1366 px; cards at 390', async ({
    page,
    request,
  }) => {
    const key = await signIn(page);
    const a = api(request, key);
    await a.post('mfa/policies', {
      name: 'A policy with a long enough name to squeeze the columns',
      description: 'Every administrator signs in with a second factor, from any network, at any hour.',
      enabled: true,
      requireMfa: false,
      allowedMethods: ['TOTP', 'Hardware Token'],
    });
    await a.post('mfa/policies', {
      name: 'Off',
      enabled: false,
      requireMfa: false,
      allowedMethods: ['TOTP'],
    });
    for (const width of [1280, 1366]) {
      await page.setViewportSize({ width, height: 900 });
      await page.goto('/mfa/management');
      await page.getByRole('tab', { name: /Policies/ }).click();
      await expect(page.getByRole('button', { name: /^Delete A policy/ })).toBeVisible();
      await expectWholeText(
        page,
        'main .mantine-Badge-root',
        ['Enabled', 'Disabled'],
        `policies at ${width}`,
      );
      await expectNoPageOverflow(page, `policies at ${width}`);
      await shot(page, `fit-mfa-policies-${width}`);
    }
    await page.setViewportSize(MOBILE);
    await expect(page.getByRole('button', { name: /^Delete A policy/ })).toBeVisible();
    await expectCards(page, 'MFA policies');
    await expectNoPageOverflow(page, 'policies at 390');
    await expectButtonsInView(page, /^Delete (A policy|Off)/, 'policies at 390');
    await expectWholeText(page, 'main .mantine-Badge-root', ['Enabled', 'Disabled'], 'policies at 390');
    await shot(page, 'fit-mfa-policies-390');
  });

  test('/system: an updates summary with a link, cards at 390, no overflow', async ({ page, request }) => {
    const key = await signIn(page);
    const updates = await api(request, key).get<{ updates: { installed: boolean }[] }>('updates');
    const pending = updates.updates.filter((u) => !u.installed).length;
    await page.goto('/system');
    const summary = page.getByTestId('updates-summary');
    await expect(summary).toHaveText(
      pending === 0 ? 'The system is up to date.' : `${pending} update${pending === 1 ? '' : 's'} available`,
    );
    // Not the whole list again: the list is one link away.
    await expect(page.getByTestId('update-size')).toHaveCount(0);
    await expect(page.getByRole('link', { name: 'View the updates in System Management' })).toHaveAttribute(
      'href',
      '/system/management',
    );
    await expect(page.getByRole('heading', { name: 'Service Status' })).toBeVisible();
    await expect(page.getByRole('table', { name: 'Service Status table' })).toBeVisible();
    for (const width of [1280, 1366]) {
      await page.setViewportSize({ width, height: 900 });
      await expectNoPageOverflow(page, `/system at ${width}`);
    }
    await shot(page, 'fit-system-1280');
    await page.setViewportSize(MOBILE);
    await expect(page.getByRole('list', { name: 'Service Status table' })).toBeVisible();
    await expectCards(page, '/system');
    await expectNoPageOverflow(page, '/system at 390');
    await shot(page, 'fit-system-390');
  });

  test('/system/management: each card as its data arrives, sizes on one line, cards at 390', async ({
    page,
  }) => {
    await signIn(page);
    // The page's code is loaded once, as a visitor's browser keeps it.
    await page.goto('/system/management');
    await expect(page.getByRole('heading', { level: 1, name: 'System Management' })).toBeVisible();
    await page.goto('/dashboard');
    const started = Date.now();
    await page.goto('/system/management');
    // Settings and backups come from the database: they do not wait for apt's reading.
    await expect(page.getByRole('tab', { name: /^System Settings \(\d+\)$/ })).toBeVisible();
    await expect(page.getByRole('tab', { name: /^System Backups \(\d+\)$/ })).toBeVisible();
    console.log(`/system/management: settings and backups shown ${Date.now() - started} ms after navigation`);
    await expect(page.getByRole('button', { name: 'Check Updates' })).toBeVisible({ timeout: 45_000 });
    console.log(`/system/management: updates shown ${Date.now() - started} ms after navigation`);
    // Visits within the minute: the shared reading answers at once (each worker process reads once).
    for (let i = 0; i < 3; i++) {
      await page.goto('/dashboard');
      const again = Date.now();
      await page.goto('/system/management');
      await expect(page.getByRole('button', { name: 'Check Updates' })).toBeVisible({ timeout: 45_000 });
      console.log(
        `/system/management visit ${i + 2}: updates shown ${Date.now() - again} ms after navigation`,
      );
    }
    for (const width of [1280, 1366]) {
      await page.setViewportSize({ width, height: 900 });
      const n = await expectOneLine(page, '[data-testid="update-size"]', `update sizes at ${width}`);
      console.log(`${n} update sizes measured at ${width} px`);
      await expectNoPageOverflow(page, `/system/management at ${width}`);
    }
    await shot(page, 'fit-system-management-1280');
    await page.setViewportSize(MOBILE);
    await expectNoPageOverflow(page, '/system/management at 390');
    await expectCards(page, '/system/management updates');
    await shot(page, 'fit-system-management-390');
    await page.getByRole('tab', { name: /System Settings/ }).click();
    await expect(page.getByRole('list', { name: 'System Settings table' })).toBeVisible();
    await expectCards(page, '/system/management settings');
    await expectNoPageOverflow(page, '/system/management settings at 390');
    await shot(page, 'fit-system-management-settings-390');
    // A backup's card: its five buttons leave the title room (they squeezed it to one letter).
    const key = await page.evaluate(() => localStorage.getItem('api_key'));
    const a = api(page.request, key!);
    const job = await a.post<{ jobId: number }>('backup/start', { type: 'full' });
    await expect
      .poll(async () => (await a.get<{ state: string }>(`jobs/${job.jobId}`)).state, { timeout: 60_000 })
      .toBe('succeeded');
    await page.reload();
    await page.getByRole('tab', { name: /System Backups \(\d+\)/ }).click();
    const card = page.getByRole('list', { name: 'System Backups table' }).getByRole('listitem').first();
    await expect(card.getByRole('button', { name: /^Delete/ })).toBeVisible();
    const title = await card.getByText(/^Full backup/).boundingBox();
    expect(title!.width, 'the backup title box on a phone card').toBeGreaterThan(100);
    await expectNoPageOverflow(page, 'backups at 390');
    await shot(page, 'fit-system-management-backups-390');
    // The worker's server is shared by the specs: the backup goes, so none finds one it did not make.
    const { result } = await a.get<{ result: { backupId: number } }>(`jobs/${job.jobId}`);
    const del = await page.request.delete(`/api/backups/${result.backupId}`, {
      headers: { Authorization: `Bearer ${key!}` },
    });
    expect(del.ok(), await del.text()).toBe(true);
  });

  test('/system/monitoring: the process list is paged', async ({ page }) => {
    await signIn(page);
    await page.goto('/system/monitoring');
    const table = page.getByRole('table', { name: 'Processes' });
    await expect(table.getByRole('row').nth(1)).toBeVisible({ timeout: 30_000 });
    const pager = page.getByText(/^Showing 1–\d+ of \d+ processes$/);
    await expect(pager).toBeVisible();
    const total = Number(/of (\d+)/.exec((await pager.textContent()) ?? '')![1]);
    // Header row plus at most one page of 50.
    const rows = await table.getByRole('row').count();
    expect(rows - 1).toBe(Math.min(50, total));
    if (total > 50) {
      await page.getByRole('button', { name: 'Page 2' }).click();
      await expect(page.getByText(/^Showing 51–\d+ of \d+ processes$/)).toBeVisible();
    }
    await shot(page, 'fit-system-processes-1280');
  });
});
