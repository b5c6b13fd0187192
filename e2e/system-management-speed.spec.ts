import { expect, MOBILE, shot, signIn, test } from './fixtures.ts';

/**
 * Issue 22 #18: "/system/management shows data in 4–7.7 s (goal ≤ 1 s)". The updates were read
 * from apt at the first read of each worker (5–6 s). The server now keeps one reading, warmed at
 * start and read again in the background, and answers it at once with its age: every card of the
 * page shows its figure within a second of opening it.
 */
const CARDS = ['Available Updates', 'Settings', 'Backups', 'Logs'];

for (const size of [
  { name: 'desktop', viewport: { width: 1280, height: 900 } },
  { name: 'phone', viewport: MOBILE },
]) {
  test(`/system/management shows its cards within 1 s (${size.name})`, async ({ page, request }) => {
    test.setTimeout(180_000);
    await page.setViewportSize(size.viewport);
    const key = await signIn(page);
    // The server's first reading of apt (begun at its start) is done: what any later visit finds.
    await expect
      .poll(
        async () => {
          const res = await request.get('/api/updates', { headers: { Authorization: `Bearer ${key}` } });
          return ((await res.json()) as { readAt?: string | null }).readAt ?? null;
        },
        { timeout: 120_000, intervals: [500] },
      )
      .not.toBeNull();

    await page.goto('/system/management');
    // The page's own code is there (a lazily loaded chunk: its parse time is the machine's, not the
    // data's); from now on every card must show its figure within a second.
    await expect(page.getByRole('heading', { level: 1, name: 'System Management' })).toBeVisible({
      timeout: 30_000,
    });
    const started = Date.now();
    // Checked at every frame (Playwright's own retries poll too coarsely for a one-second budget).
    await page.waitForFunction(
      (titles) => {
        const cards = Array.from(document.querySelectorAll('.mantine-Card-root'));
        return titles.every((t) => {
          const card = cards.find((c) => c.textContent?.includes(t));
          // A figure, not the '…' of a card still waiting for its data.
          return !!card && !card.textContent?.includes('…');
        });
      },
      CARDS,
      { polling: 'raf', timeout: 10_000 },
    );
    const ms = Date.now() - started;
    expect(ms, `the cards took ${ms} ms after the page loaded`).toBeLessThan(1000);
    // The updates tab says how old its list is.
    await expect(page.getByText(/List read (just now|\d+m ago)/)).toBeVisible({ timeout: 1000 });
    await shot(page, `system-management-cards-${size.name}`);
  });
}
