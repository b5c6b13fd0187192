import AxeBuilder from '@axe-core/playwright';
import { signIn, test } from './fixtures.ts';

test('debug axe', async ({ page }) => {
  await signIn(page);
  await page.goto('/dns/zones');
  await page.getByRole('button', { name: 'Add DNS Zone' }).click();
  const axePage = page as unknown as ConstructorParameters<typeof AxeBuilder>[0]['page'];
  const results = await new AxeBuilder({ page: axePage }).analyze();
  for (const v of results.violations) {
    if (v.impact !== 'serious' && v.impact !== 'critical') continue;
    console.log(v.id, v.impact);
    for (const n of v.nodes.slice(0, 4)) console.log('  ', n.html.slice(0, 300), '\n    ', n.failureSummary?.replace(/\n/g, ' | '));
  }
});
