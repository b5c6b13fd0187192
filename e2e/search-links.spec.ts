import type { Page } from '@playwright/test';
import { axeCheck, expect, shot, signIn, test } from './fixtures.ts';

/** Types into the header's search, waits for the hit and opens it with Enter. */
async function openHit(page: Page, term: string, hit: string): Promise<void> {
  await page.goto('/dashboard');
  const search = page.getByRole('textbox', { name: 'Search' });
  await search.fill(term);
  const option = page.getByTestId('search-dropdown').getByRole('option', { name: hit });
  await expect(option).toBeVisible();
  await search.focus();
  for (let i = 0; i < 25 && (await option.getAttribute('data-combobox-selected')) === null; i++)
    await search.press('ArrowDown');
  await expect(option).toHaveAttribute('data-combobox-selected');
  await search.press('Enter');
}

test.describe('global search hits open a page that shows them (issue 12)', () => {
  test('a mailbox, alias and domain hit each land on their filtered list', async ({ page, request }) => {
    const key = await signIn(page);
    const auth = { Authorization: `Bearer ${key}` };
    for (const [path, data] of [
      ['/api/mail/domains/add', { domain: 'linkhits.example' }],
      ['/api/mail/users/add', { email: 'quokka.one@linkhits.example', password: 'password-quokka-1' }],
      ['/api/mail/users/add', { email: 'wombat.two@linkhits.example', password: 'password-wombat-2' }],
      [
        '/api/mail/aliases/add',
        { source: 'quokka.team@linkhits.example', destination: 'quokka.one@linkhits.example' },
      ],
    ] as const) {
      const res = await request.post(path, { headers: auth, data });
      expect(res.ok(), `${path}: ${await res.text()}`).toBe(true);
    }

    // Mailbox: the page opens with the box filled from ?q= and only that row.
    await openHit(page, 'quokka.o', 'quokka.one@linkhits.example');
    await page.waitForURL('**/mail/mailboxes?q=quokka.one%40linkhits.example');
    await expect(page.getByRole('textbox', { name: 'Search mailboxes' })).toHaveValue(
      'quokka.one@linkhits.example',
    );
    await expect(page.getByText('quokka.one@linkhits.example').first()).toBeVisible();
    await expect(page.getByText('wombat.two@linkhits.example')).toHaveCount(0);
    // Typing keeps the term in the URL, replacing the entry rather than adding one.
    await page.getByRole('textbox', { name: 'Search mailboxes' }).fill('wombat');
    await page.waitForURL('**/mail/mailboxes?q=wombat');
    await expect(page.getByText('wombat.two@linkhits.example').first()).toBeVisible();
    await page.goBack();
    await page.waitForURL('**/dashboard');

    // Alias.
    await openHit(page, 'quokka.t', 'quokka.team@linkhits.example');
    await page.waitForURL('**/mail/aliases?q=quokka.team%40linkhits.example');
    await expect(page.getByRole('textbox', { name: 'Search aliases' })).toHaveValue(
      'quokka.team@linkhits.example',
    );
    await expect(page.getByText('quokka.team@linkhits.example').first()).toBeVisible();

    // Domain: the Domains screen, filtered to it.
    await openHit(page, 'linkhits.ex', 'linkhits.example');
    await page.waitForURL('**/mail/domains?q=linkhits.example');
    await expect(page.getByRole('textbox', { name: 'Search domains' })).toHaveValue('linkhits.example');
    await expect(page.getByText('linkhits.example', { exact: true }).first()).toBeVisible();
    await expect(page.getByRole('button', { name: /^Remove / })).toHaveCount(1);
    await axeCheck(page, 'domains filtered by ?q=');
    await shot(page, 'search-links-domains');
  });
});
