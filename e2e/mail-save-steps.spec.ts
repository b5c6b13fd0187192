import { apiClient as api } from './api-client.ts';
import { expect, MOBILE, shot, signIn, test } from './fixtures.ts';

/**
 * Issue 22 #17: while a mail settings save runs, its steps show on the page as they change (from
 * the events stream), then the final result as before. The save's answer is held back here (route
 * interception) so the running state can be looked at; the server's own work is not slowed.
 */

interface SettingsAnswer {
  settings: Record<string, unknown> & { maxRecipients: number };
  version: number;
}

test('mail settings: the save steps show while the save runs, then the final result', async ({
  page,
  request,
}) => {
  const key = await signIn(page);
  const a = api(request, key);
  const before = await a.get<SettingsAnswer>('mail/settings');
  await page.goto('/mail/settings');
  await expect(page.getByLabel('Breadcrumb')).toContainText('Mail Settings');

  // Every state the page shows in the live step list, in order (each render that changes it).
  await page.evaluate(() => {
    const seen: string[] = [];
    (window as unknown as { __stepStates: string[] }).__stepStates = seen;
    new MutationObserver(() => {
      const list = document.querySelector('[aria-label="Save steps so far"]');
      if (!list) return;
      const now = Array.from(list.querySelectorAll('[data-state]'))
        .map((el) => `${el.getAttribute('data-step')}=${el.getAttribute('data-state')}`)
        .join(',');
      if (seen.at(-1) !== now) seen.push(now);
    }).observe(document.body, { subtree: true, childList: true, attributes: true, characterData: true });
  });

  // The save's answer waits until the live list has been looked at.
  let release!: () => void;
  const held = new Promise<void>((r) => (release = r));
  let answered = false;
  let holding = 0;
  // The console calls `/api/index.php?path=mail/settings` (web/src/api/client.ts buildUrl).
  const settingsUrl = (u: URL) =>
    u.searchParams.get('path') === 'mail/settings' || u.pathname === '/api/mail/settings';
  await page.route(settingsUrl, async (route) => {
    if (route.request().method() !== 'POST') return route.continue();
    holding++;
    const response = await route.fetch();
    await held;
    answered = true;
    await route.fulfill({ response });
  });

  const recipients = page.getByLabel('Max Recipients');
  await recipients.fill(String(before.settings.maxRecipients === 140 ? 141 : 140));
  await page.getByRole('button', { name: 'Save Settings' }).click();

  const saving = page.getByRole('status').filter({ hasText: 'Saving mail settings' });
  await expect(saving).toBeVisible();
  const live = saving.getByLabel('Save steps so far');
  // The steps came over the events stream while the answer is still held back.
  await expect(live.getByText('Prepare the mail host')).toBeVisible();
  await expect(live.getByText('Put the files live')).toBeVisible();
  await expect(live.locator('[data-state="passed"]').first()).toBeVisible();
  expect(holding, 'the save went through the interception').toBe(1);
  expect(answered).toBe(false);
  await shot(page, 'mail-settings-save-steps-running');
  await page.setViewportSize(MOBILE);
  await shot(page, 'mail-settings-save-steps-running-mobile');
  await page.setViewportSize({ width: 1280, height: 800 });
  expect(answered, 'the answer is still held').toBe(false);

  // The page showed steps running (and pending) before they ended: the list followed the save.
  const states = await page.evaluate(() => (window as unknown as { __stepStates: string[] }).__stepStates);
  expect(
    states.some((s) => s.includes('=running')),
    states.join('\n'),
  ).toBe(true);
  expect(
    states.some((s) => s.includes('=pending')),
    states.join('\n'),
  ).toBe(true);
  const firstRunning = states.findIndex((s) => s.includes('Save the settings=running'));
  const lastPassed = states.findIndex((s) => s.includes('Save the settings=passed'));
  if (firstRunning >= 0) expect(firstRunning).toBeLessThan(lastPassed);

  release();
  // The final result as before: the saved message with the answer's steps, no step left pending.
  const done = page.getByRole('status').filter({ hasText: 'Mail settings saved successfully!' });
  await expect(done).toBeVisible();
  await expect(saving).toBeHidden();
  const final = done.getByLabel('Save steps');
  await expect(final.locator('[data-state="passed"]').filter({ hasText: 'Save the settings' })).toBeVisible();
  await expect(final.locator('[data-state="pending"], [data-state="running"]')).toHaveCount(0);
  const after = await a.get<SettingsAnswer>('mail/settings');
  expect(after.version).toBe(before.version + 1);
  await shot(page, 'mail-settings-save-steps-done');
});
