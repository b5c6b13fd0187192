import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { apiClient as api } from './api-client.ts';
import { expect, expectNoSideScroll, MOBILE, shot, signIn, test } from './fixtures.ts';

/**
 * The application's panel shows its instances (id, port, process, state, memory) and whether
 * Memory Limit / CPU Limit are enforced here, from a real deploy of two instances (issue 20).
 */

interface AppView {
  instances: { id: number; port: number; pid: number | null }[];
  resourceLimits: { enforced: boolean; detail: string };
}

const VIEWPORTS = [
  { name: 'desktop', size: { width: 1280, height: 800 } },
  { name: 'phone', size: MOBILE },
] as const;

function repository(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'mailroom-e2e-lb-'));
  writeFileSync(
    path.join(dir, 'server.js'),
    `require('node:http').createServer((req, res) => { res.writeHead(200); res.end('instance ' + process.env.MAILROOM_INSTANCE); }).listen(Number(process.env.PORT), '127.0.0.1');\n`,
  );
  const git = (...args: string[]) =>
    execFileSync('git', ['-c', 'user.email=e2e@example.com', '-c', 'user.name=e2e', ...args], { cwd: dir });
  git('init', '-q', '-b', 'main');
  git('add', '.');
  git('commit', '-q', '-m', 'one');
  return dir;
}

for (const vp of VIEWPORTS) {
  test.describe(`application instances at ${vp.size.width} px`, () => {
    test.use({ viewport: vp.size });

    test('two instances of the live release and the limit state on the panel', async ({ page, request }) => {
      test.setTimeout(180_000);
      const key = await signIn(page);
      const a = api(request, key);
      const caps = await a.get<{ allowedRoots: string[] }>('web/capabilities/applications');
      const name = `lb-${vp.name}`;
      await a.post('web/applications/add', {
        name,
        domain: `${name}.example.com`,
        version: '1.0.0',
        repository: repository(),
        deploymentPath: `${caps.allowedRoots[0]}/${name}`,
        startCommand: `${process.execPath} server.js`,
        enableHealthChecks: false,
        healthCheckTimeout: 2,
        shutdownTimeout: 1,
        enableLoadBalancing: true,
        minInstances: 2,
        maxInstances: 4,
      });
      const job = await a.post<{ jobId: number }>(`web/applications/deploy/${name}`);
      await expect
        .poll(async () => (await a.get<{ state: string }>(`jobs/${job.jobId}`)).state, { timeout: 90_000 })
        .toBe('succeeded');
      const app = await a.get<AppView>(`web/applications/${name}`);
      expect(app.instances.map((i) => i.id)).toEqual([1, 2]);
      // Each instance answers as itself on its own port.
      for (const i of app.instances)
        expect(await (await request.get(`http://127.0.0.1:${i.port}/`)).text()).toBe(`instance ${i.id}`);

      await page.goto(`/web/applications?app=${name}`);
      const panel = page.getByRole('dialog', { name });
      const table = panel.getByRole('table', { name: `Instances of ${name}` });
      const rows = vp.name === 'phone' ? panel.getByRole('list', { name: `Instances of ${name}` }) : table;
      await expect(rows).toContainText('#1', { timeout: 30_000 });
      await expect(rows).toContainText('#2');
      await expect(rows).toContainText(String(app.instances[1]!.port));
      await expect(rows).toContainText('Running');
      await expect(panel).toContainText('Load balancing over 2 instance(s) (Min 2, Max 4)');
      await expect(panel).toContainText(app.resourceLimits.detail);
      if (vp.name === 'phone') await expectNoSideScroll(page);
      await panel.getByRole('heading', { name: 'Instances' }).scrollIntoViewIfNeeded();
      await shot(page, `web-app-instances-${vp.name}`);
      await a.post(`web/applications/remove/${name}`, { keepFiles: false });
    });
  });
}
