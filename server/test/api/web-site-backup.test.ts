import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Job } from '@mailroom/contract/jobs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialects, startTestApp, type TestContext } from '../harness.ts';

// The sites' files live outside the data folder in system mode (under /var/www): here the host
// root is a temporary folder outside the data folder, as / is there. A site with Enable Backup is
// archived by the system backup job (host.tar.gz) and put back by its restore; one without is not.
const FAST = { heartbeatMs: 50, persistMs: 20, pollMs: 50, staleMs: 5000 };
async function waitJob(t: TestContext, id: number): Promise<Job> {
  for (let i = 0; i < 2400; i++) {
    const job = (await t.call({ url: `/api/jobs/${id}` })).json<Job>();
    if (!['queued', 'running'].includes(job.state)) return job;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`job ${id} did not finish`);
}

describe.each(dialects())('site backups through the system backups on %s', (dialect) => {
  let t: TestContext;
  let root: string;
  const at = (p: string) => path.join(root, p);

  beforeAll(async () => {
    root = mkdtempSync(path.join(os.tmpdir(), 'mailroom-siteroot-'));
    t = await startTestApp(dialect, { env: { MAILROOM_ROOT: root }, jobs: FAST });
  });
  afterAll(async () => {
    await t.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('a backup holds the files of the sites with Enable Backup only; a restore puts them back', async () => {
    const add = async (domain: string, enableBackup: boolean) => {
      const res = await t.call({
        method: 'POST',
        url: '/api/web/vhosts/add',
        payload: { domain, serverName: domain, documentRoot: `/var/www/${domain}`, enableBackup },
      });
      expect(res.statusCode, res.body).toBe(200);
    };
    await add('kept.example.com', true);
    await add('skipped.example.com', false);
    writeFileSync(at('var/www/kept.example.com/page.html'), 'kept page\n');
    writeFileSync(at('var/www/skipped.example.com/page.html'), 'skipped page\n');

    let res = await t.call({ method: 'POST', url: '/api/backup/start', payload: { type: 'full' } });
    expect(res.statusCode).toBe(202);
    const made = await waitJob(t, res.json<{ jobId: number }>().jobId);
    expect(made.state, made.message ?? '').toBe('succeeded');
    const result = made.result as { backupId: number; file: string };
    const scratch = mkdtempSync(path.join(os.tmpdir(), 'mailroom-sitepart-'));
    execFileSync('tar', ['-xf', path.join(t.dataDir, 'backups', result.file), '-C', scratch, 'host.tar.gz']);
    const listed = execFileSync('tar', ['-tzf', path.join(scratch, 'host.tar.gz')], {
      encoding: 'utf8',
    }).split('\n');
    rmSync(scratch, { recursive: true, force: true });
    expect(listed).toContain('var/www/kept.example.com/page.html');
    expect(listed).toContain('var/www/kept.example.com/index.html');
    expect(listed.filter((f) => f.includes('skipped.example.com'))).toEqual([]);

    // Lost: the page goes and the index is overwritten; the restore puts both back.
    rmSync(at('var/www/kept.example.com/page.html'));
    const index = readFileSync(at('var/www/kept.example.com/index.html'), 'utf8');
    writeFileSync(at('var/www/kept.example.com/index.html'), 'defaced\n');
    res = await t.call({ method: 'POST', url: `/api/backups/${result.backupId}/restore` });
    expect(res.statusCode).toBe(202);
    const restored = await waitJob(t, res.json<{ jobId: number }>().jobId);
    expect(restored.state, restored.message ?? '').toBe('succeeded');
    expect(readFileSync(at('var/www/kept.example.com/page.html'), 'utf8')).toBe('kept page\n');
    expect(readFileSync(at('var/www/kept.example.com/index.html'), 'utf8')).toBe(index);
    expect(existsSync(at('var/www/skipped.example.com/page.html'))).toBe(true);
  });
});
