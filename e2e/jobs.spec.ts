import { expect, shot, signIn, test } from './fixtures.ts';

// A file far above the job threshold (2,000 rows): it runs as a job and the page follows it live.
// Large enough that the job still runs when the page first asks: 100,000 rows once ended in under a
// second, before the page's first look, and no progress bar was ever shown.
const ROWS = 300_000;

test('a large alias import runs as a job: progress bar, then the result table', async ({ page, request }) => {
  test.setTimeout(180_000);
  const key = await signIn(page);
  const headers = { Authorization: `Bearer ${key}` };
  const mb = await request.post('/api/mail/users/add', {
    headers,
    data: { createDomain: true, email: 'bulk@jobs.example.com', password: 'password-bulk-1' },
  });
  expect(mb.ok(), await mb.text()).toBe(true);

  const lines = ['source,destination'];
  for (let i = 0; i < ROWS; i++) lines.push(`job-${i}@jobs.example.com,bulk@jobs.example.com`);
  lines.push('not-an-address,bulk@jobs.example.com');
  lines.push('job-0@jobs.example.com,bulk@jobs.example.com');
  const csv = lines.join('\n') + '\n';

  await page.goto('/mail/aliases');
  await expect(page.getByRole('heading', { level: 1, name: 'Email Aliases' })).toBeVisible();
  await page.getByRole('button', { name: 'Import Aliases' }).click();
  const result = page.getByRole('dialog', { name: 'Import Aliases' });
  await result
    .locator('input[type="file"]')
    .setInputFiles({ name: 'big-aliases.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
  await result.getByRole('button', { name: 'Import Aliases' }).click();

  // The job's progress, over /api/events.
  const progress = page.getByTestId('job-progress');
  await expect(progress).toBeVisible({ timeout: 30_000 });
  await expect(progress).toContainText('Alias import');
  // The bar itself (its filled part is zero-wide at 0 %, e.g. when the writing phase starts).
  await expect(progress.getByRole('progressbar')).toBeAttached();
  await expect(progress.getByRole('progressbar')).toHaveAttribute('aria-valuetext', /^\d+%$/);
  await expect(progress.getByRole('button', { name: 'Cancel' })).toBeVisible();
  await shot(page, 'jobs-alias-import-progress');

  // Then the same result table as a small import, from the finished job.
  await expect(result.getByRole('group', { name: `Imported: ${ROWS}` })).toBeVisible({ timeout: 120_000 });
  await expect(result).toContainText('big-aliases.csv');
  await expect(result.getByRole('group', { name: 'Errors: 2' })).toBeVisible();
  const errors = result.getByRole('table', { name: 'Rows not imported' });
  await expect(errors.getByRole('row').filter({ hasText: String(ROWS + 2) })).toContainText(
    'valid email address',
  );
  await expect(errors.getByRole('row').filter({ hasText: String(ROWS + 3) })).toContainText('more than once');
  await expect(progress).toBeHidden();
  await shot(page, 'jobs-alias-import-result');

  // The job is on record with the same counts.
  const jobs = await request.get('/api/jobs?kind=mail.alias.import', { headers });
  const [job] = (await jobs.json()) as { state: string; counts: Record<string, number> }[];
  expect(job).toMatchObject({ state: 'succeeded', counts: { imported: ROWS, skipped: 0, errors: 2 } });
  // Every imported row, plus the new domain's required addresses (postmaster@, abuse@) as system
  // aliases; the domain's counter, since a search's count stops at 10,000 (X-Total-Capped).
  const domains = (await (await request.get('/api/mail/domains', { headers })).json()) as {
    domain: string;
    aliases: number;
  }[];
  expect(domains.find((d) => d.domain === 'jobs.example.com')?.aliases).toBe(ROWS + 2);
  const search = await request.get('/api/mail/aliases?q=jobs.example.com&limit=1', { headers });
  expect(search.headers()['x-total-capped']).toBe('true');
  for (const local of ['postmaster', 'abuse']) {
    const res = await request.get(`/api/mail/aliases?q=${local}%40jobs.example.com`, { headers });
    expect(((await res.json()) as { source: string; system: boolean }[])[0]).toMatchObject({
      source: `${local}@jobs.example.com`,
      system: true,
    });
  }
});
