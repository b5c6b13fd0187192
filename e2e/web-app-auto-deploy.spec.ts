import { createHmac } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { apiClient as api } from './api-client.ts';
import { axeCheck, expect, expectNoSideScroll, MOBILE, shot, signIn, test } from './fixtures.ts';

/**
 * Auto deploy in the application's panel (issue 20): the webhook URL, a secret made here and shown
 * once (a delivery signed with it is accepted, the panel never shows it again), Check now. At 1280
 * and 390 px.
 */

const VIEWPORTS = [
  { name: 'desktop', size: { width: 1280, height: 800 } },
  { name: 'phone', size: MOBILE },
] as const;

for (const vp of VIEWPORTS) {
  test.describe(`application auto deploy at ${vp.size.width} px`, () => {
    test.use({ viewport: vp.size });

    test('webhook URL, secret shown once and accepted by the webhook, Check now', async ({
      page,
      request,
    }) => {
      test.setTimeout(120_000);
      const key = await signIn(page);
      const a = api(request, key);
      const caps = await a.get<{ allowedRoots: string[] }>('web/capabilities/applications');
      const name = `hook-${vp.name}`;
      const repo = mkdtempSync(path.join(tmpdir(), 'mailroom-e2e-hook-'));
      const git = (...args: string[]) =>
        execFileSync('git', ['-c', 'user.email=e2e@example.com', '-c', 'user.name=e2e', ...args], {
          cwd: repo,
        });
      git('init', '-q', '-b', 'main');
      writeFileSync(path.join(repo, 'index.html'), '<h1>hook</h1>\n');
      git('add', '.');
      git('commit', '-q', '-m', 'one');
      await a.post('web/applications/add', {
        name,
        domain: `${name}.example.com`,
        version: '1',
        type: 'Static',
        repository: repo,
        deploymentPath: `${caps.allowedRoots[0]}/${name}`,
        enableAutoDeploy: true,
      });

      await page.goto(`/web/applications?app=${name}`);
      const panel = page.getByRole('dialog', { name });
      const section = panel.getByRole('region', { name: 'Auto Deploy' });
      await expect(section).toContainText('On: a push to main deploys it');
      await expect(section.getByTestId('webhook-url')).toHaveText(
        new RegExp(`/api/web/hooks/applications/${name}$`),
      );
      await expect(section).toContainText('No secret yet');
      await section.getByRole('button', { name: 'Create secret' }).click();
      const secret = section.getByTestId('webhook-secret');
      await expect(secret).toHaveText(/^[0-9a-f]{64}$/);
      await expect(section.getByRole('button', { name: 'Rotate secret' })).toBeVisible();
      await expect(section).toContainText('Secret set');
      if (vp.name === 'phone') await expectNoSideScroll(page);
      await axeCheck(page, 'application panel with auto deploy');
      await section.getByRole('button', { name: 'Check now' }).scrollIntoViewIfNeeded();
      await shot(page, `web-app-auto-deploy-${vp.name}`);

      // The Git server's delivery signed with the secret shown: accepted (a ping).
      const raw = JSON.stringify({ zen: 'ping' });
      const res = await request.post(`/api/web/hooks/applications/${name}`, {
        headers: {
          'content-type': 'application/json',
          'x-github-event': 'ping',
          'x-github-delivery': `e2e-${vp.name}-${Date.now()}`,
          'x-hub-signature-256': `sha256=${createHmac('sha256', (await secret.textContent())!)
            .update(raw)
            .digest('hex')}`,
        },
        data: raw,
      });
      expect(res.status()).toBe(200);
      expect((await res.json()).outcome).toBe('pong');

      // Check now reads the remote: the branch was never deployed, so it deploys (unless the poll,
      // every minute from the app's creation, got there first: then it is live already).
      await section.getByRole('button', { name: 'Check now' }).click();
      await expect(section.getByTestId('autodeploy-last')).toContainText(
        new RegExp(`Deploying ${name} at [0-9a-f]{12}|[0-9a-f]{12} is already live|is being deployed now`),
      );
      await expect
        .poll(
          async () =>
            (await a.get<{ startedBy: string; state: string }[]>(`web/applications/${name}/releases`))[0],
          { timeout: 60_000 },
        )
        .toMatchObject({
          startedBy: expect.stringMatching(/^auto-deploy \((poll|console)\)$/),
          state: 'live',
        });
      // Reopened, the panel never shows the secret again.
      await page.reload();
      await expect(
        page.getByRole('dialog', { name }).getByRole('region', { name: 'Auto Deploy' }),
      ).toContainText('Secret set');
      await expect(page.getByTestId('webhook-secret')).toHaveCount(0);
      // The worker's server is shared by the specs: the application goes (the others expect none).
      await a.post(`web/applications/remove/${name}`, { keepFiles: false });
    });
  });
}
