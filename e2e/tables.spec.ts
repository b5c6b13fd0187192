import type { Locator, Page } from '@playwright/test';
import { apiClient as api } from './api-client.ts';
import { axeCheck, expect, expectNoSideScroll, MOBILE, shot, signIn, test } from './fixtures.ts';

// Aliases and DNS records on the shared data table (sort, select, bulk delete, phone cards) and
// the one import flow (dry run → per-row results → import) on the alias, mailbox and record screens.

/** The texts of column `col` of the table's rows that contain `has`. */
const firstCells = (table: Locator, has: string, col: number) => () =>
  table.getByRole('row').filter({ hasText: has }).locator(`td:nth-child(${col}) p`).allInnerTexts();

async function confirm(page: Page, button: string): Promise<void> {
  await page.getByRole('dialog').getByRole('button', { name: button, exact: true }).click();
}

test.describe('shared data table: aliases and records', () => {
  test('aliases: sort, select (not the system ones), bulk delete, phone cards, import dry run then import', async ({
    page,
    request,
  }) => {
    test.slow(); // many steps, three screens, axe five times
    const key = await signIn(page);
    const a = api(request, key);
    await a.post('mail/domains/add', { domain: 'tables.test' });
    for (const [src, dest] of [
      ['ann@tables.test', 'z@example.org'],
      ['bob@tables.test', 'y@example.org'],
      ['cat@tables.test', 'x@example.org'],
      ['@tables.test', 'w@example.org'],
    ])
      await a.post('mail/aliases/add', { source: src, destination: dest });

    await page.goto('/mail/aliases?q=tables.test');
    const table = page.getByRole('table', { name: 'Email aliases' });
    // Column 1 is the selection box; 2 the source.
    const sources = firstCells(table, 'tables.test', 2);
    await expect
      .poll(sources)
      .toEqual([
        '@tables.test',
        'abuse@tables.test',
        'ann@tables.test',
        'bob@tables.test',
        'cat@tables.test',
        'postmaster@tables.test',
      ]);
    // Sort by destination on the server: the system aliases (to the administrator) first, then w, x, y, z.
    const dest = table.getByRole('columnheader', { name: 'Destination Email' });
    await dest.getByRole('button').click();
    await expect(dest).toHaveAttribute('aria-sort', 'ascending');
    await expect
      .poll(async () => (await sources()).slice(-4))
      .toEqual(['@tables.test', 'cat@tables.test', 'bob@tables.test', 'ann@tables.test']);
    const source = table.getByRole('columnheader', { name: 'Source Email' });
    await source.getByRole('button').click();
    await source.getByRole('button').click();
    await expect(source).toHaveAttribute('aria-sort', 'descending');
    await expect.poll(async () => (await sources())[0]).toBe('postmaster@tables.test');

    // A required system alias cannot be selected; the catch-all and a normal alias can.
    await expect(table.getByRole('checkbox', { name: 'Select postmaster@tables.test' })).toBeDisabled();
    await table.getByRole('checkbox', { name: 'Select @tables.test' }).check();
    await table.getByRole('checkbox', { name: 'Select ann@tables.test' }).check();
    const bar = page.getByRole('region', { name: 'Selected aliases' });
    await expect(bar).toContainText('2 aliases selected');
    await axeCheck(page, 'aliases with a selection');
    await shot(page, 'tables-aliases-selection');
    await bar.getByRole('button', { name: 'Delete' }).click();
    await confirm(page, 'Delete');
    await expect(bar).toBeHidden();
    await expect
      .poll(sources)
      .toEqual(['postmaster@tables.test', 'cat@tables.test', 'bob@tables.test', 'abuse@tables.test']);
    const left = await a.get<{ source: string }[]>('mail/aliases?q=tables.test&limit=100');
    expect(left.map((x) => x.source).sort()).toEqual([
      'abuse@tables.test',
      'bob@tables.test',
      'cat@tables.test',
      'postmaster@tables.test',
    ]);

    // The shared import: a dry run lists the refused rows and writes nothing; then the import.
    await page.getByRole('button', { name: 'Import Aliases' }).click();
    const dialog = page.getByRole('dialog', { name: 'Import Aliases' });
    const csv = 'source,destination\nnew1@tables.test,a@example.org\nbad-row,a@example.org\n,a@example.org\n';
    await dialog
      .locator('input[type="file"]')
      .setInputFiles({ name: 'aliases.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
    await dialog.getByLabel('Check only (dry run)').check();
    await dialog.getByRole('button', { name: 'Import Aliases' }).click();
    const result = dialog.getByRole('status', { name: 'Import result' });
    await expect(result).toContainText('1 alias would be imported, 1 skipped, 1 error.');
    await expect(result.getByRole('group', { name: 'Would import: 1' })).toBeVisible();
    await expect(
      result.getByRole('table', { name: 'Rows not imported' }).getByRole('row').filter({ hasText: /^3/ }),
    ).toContainText('valid email address');
    expect(await a.get<unknown[]>('mail/aliases?q=new1@tables.test')).toEqual([]);
    await axeCheck(page, 'alias import dry run');
    await shot(page, 'tables-aliases-import-dry-run');
    await dialog.getByLabel('Check only (dry run)').uncheck();
    await dialog.getByRole('button', { name: 'Import Aliases' }).click();
    await expect(result).toContainText('1 alias imported, 1 skipped, 1 error.');
    // One notification for the outcome.
    await expect(page.getByRole('alert').filter({ hasText: 'Aliases imported' })).toHaveCount(1);
    await dialog.getByRole('button', { name: 'Close' }).click();
    await expect(table.getByRole('row').filter({ hasText: 'new1@tables.test' })).toBeVisible();

    // Phone: cards with their actions beside the title; nothing scrolls sideways.
    await page.setViewportSize(MOBILE);
    const cards = page.getByRole('list', { name: 'Email aliases' });
    const card = cards.getByRole('listitem').filter({ hasText: 'bob@tables.test' });
    await expect(card).toBeVisible();
    await expect(card.getByRole('button', { name: 'Edit bob@tables.test' })).toBeInViewport();
    await expect(card).toContainText('y@example.org');
    await expectNoSideScroll(page);
    await axeCheck(page, 'aliases at phone width');
    await shot(page, 'tables-aliases-phone');
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.evaluate(() => localStorage.setItem('theme', 'dark'));
    await page.reload();
    await expect(cards.getByRole('listitem').filter({ hasText: 'bob@tables.test' })).toBeVisible();
    await axeCheck(page, 'aliases phone dark');
    await shot(page, 'tables-aliases-phone-dark');
  });

  test('records: sort, select across zones, bulk delete, phone cards and dark; dry run of the record import', async ({
    page,
    request,
  }) => {
    test.slow(); // many steps, three screens, axe five times
    const key = await signIn(page);
    const a = api(request, key);
    for (const domain of ['tbl-one.test', 'tbl-two.test']) await a.addZone(domain);
    for (const [zone, qname, ttl] of [
      ['tbl-one.test', 'alpha', 900],
      ['tbl-one.test', 'beta', 300],
      ['tbl-two.test', 'gamma', 600],
    ] as const)
      await a.post(`dns/zones/${zone}/records`, { qname, rtype: 'A', value: '192.0.2.77', ttl });

    await page.goto('/dns/records?q=192.0.2.77');
    const table = page.getByRole('table', { name: 'DNS records' });
    // Column 1 selects, 2 is the zone, 3 the name.
    const names = firstCells(table, '192.0.2.77', 3);
    await expect.poll(names).toEqual(['alpha', 'beta', 'gamma']);
    const ttl = table.getByRole('columnheader', { name: 'TTL' });
    await ttl.getByRole('button').click();
    await expect(ttl).toHaveAttribute('aria-sort', 'ascending');
    await expect.poll(names).toEqual(['beta', 'gamma', 'alpha']);
    await ttl.getByRole('button').click();
    await expect.poll(names).toEqual(['alpha', 'gamma', 'beta']);

    await table.getByRole('checkbox', { name: 'Select all rows on this page' }).check();
    const bar = page.getByRole('region', { name: 'Selected records' });
    await expect(bar).toContainText('3 records selected');
    await table.getByRole('row').filter({ hasText: 'beta' }).getByRole('checkbox').uncheck();
    await expect(bar).toContainText('2 records selected');
    await axeCheck(page, 'records with a selection');
    await shot(page, 'tables-records-selection');
    await bar.getByRole('button', { name: 'Delete' }).click();
    await confirm(page, 'Delete');
    await expect.poll(names).toEqual(['beta']);
    const left = await a.get<{ qname: string }[]>('dns/records?q=192.0.2.77&limit=100');
    expect(left.map((r) => r.qname)).toEqual(['beta']);

    // Phone: a card per record, its name the title and its actions in view.
    await page.setViewportSize(MOBILE);
    const card = page
      .getByRole('list', { name: 'DNS records' })
      .getByRole('listitem')
      .filter({ hasText: 'beta' });
    await expect(card).toBeVisible();
    await expect(card.getByRole('button', { name: 'Edit A beta in tbl-one.test' })).toBeInViewport();
    await expectNoSideScroll(page);
    await axeCheck(page, 'records at phone width');
    await shot(page, 'tables-records-phone');
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.evaluate(() => localStorage.setItem('theme', 'dark'));
    await page.reload();
    await expect(card).toBeVisible();
    await axeCheck(page, 'records phone dark');
    await shot(page, 'tables-records-phone-dark');

    // The record import is the same flow as the alias import: dry run, per-row results.
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.getByRole('button', { name: 'Import Records' }).click();
    const panel = page.getByRole('region', { name: 'Import records' });
    await panel.locator('input[type="file"]').setInputFiles({
      name: 'r.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(
        'zone,name,type,value,ttl,priority\ntbl-two.test,delta,A,192.0.2.78,300,\ntbl-two.test,bad,A,x,300,\n',
      ),
    });
    await panel.getByLabel('Check only (dry run)').check();
    await panel.getByRole('button', { name: 'Import Records' }).click();
    const result = panel.getByRole('status', { name: 'Import result' });
    await expect(result).toContainText('1 record would be imported');
    await expect(result.getByRole('table', { name: 'Rows not imported' })).toContainText('3');
    await axeCheck(page, 'record import dry run (dark)');
    await shot(page, 'tables-records-import-dark');
  });
});
