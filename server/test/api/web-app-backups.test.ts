import { execFileSync } from 'node:child_process';
import {
  chmodSync,
  chownSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Job } from '@mailroom/contract/jobs';
import { BackupStatusAnswer } from '@mailroom/contract/system-admin';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { siteScheduleTick } from '../../src/features/system/backups/backup-scheduler.job.ts';
import { dialects, startTestApp, type TestContext } from '../harness.ts';

// An application's data folder (<Deployment Path>/data) is its part of the backups: in the system
// backups' host files, and in backups of its own on its Backup Frequency / Backup Retention, listed
// as `app <name>`; a restore of one puts back that folder only, with owners and modes. The host root
// is a temporary folder outside the data folder, as / is in system mode.
const FAST = { heartbeatMs: 50, persistMs: 20, pollMs: 50, staleMs: 5000 };
const asRoot = process.getuid?.() === 0;

async function waitJob(t: TestContext, id: number): Promise<Job> {
  for (let i = 0; i < 2400; i++) {
    const job = (await t.call({ url: `/api/jobs/${id}` })).json<Job>();
    if (!['queued', 'running'].includes(job.state)) return job;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`job ${id} did not finish`);
}

describe.each(dialects())('web application data in the backups on %s', (dialect) => {
  let t: TestContext;
  let root: string;
  const at = (p: string) => path.join(root, p);
  const add = async (name: string, extra: object) => {
    const res = await t.call({
      method: 'POST',
      url: '/api/web/applications/add',
      payload: {
        name,
        domain: `${name}.example.com`,
        version: '1',
        type: 'Static',
        deploymentPath: `/var/www/apps/${name}`,
        repository: '/srv/git/none.git',
        ...extra,
      },
    });
    expect(res.statusCode, res.body).toBe(200);
  };

  beforeAll(async () => {
    root = mkdtempSync(path.join(os.tmpdir(), 'mailroom-approot-'));
    process.env.MAILROOM_BACKUP_SCHEDULE_MS = String(24 * 3600_000);
    t = await startTestApp(dialect, { env: { MAILROOM_ROOT: root }, jobs: FAST });
  });
  afterAll(async () => {
    await t.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('the system backup holds the data folder of each app with Enable Backup, not its releases', async () => {
    await add('keep', { backupFrequency: 'daily', backupRetention: 2 });
    await add('nobackup', { enableBackup: false });
    // Creating an app makes its data folder.
    expect(statSync(at('var/www/apps/keep/data')).isDirectory()).toBe(true);
    mkdirSync(at('var/www/apps/keep/data/uploads'), { recursive: true });
    writeFileSync(at('var/www/apps/keep/data/uploads/a.txt'), 'upload a\n');
    mkdirSync(at('var/www/apps/keep/releases/1'), { recursive: true });
    writeFileSync(at('var/www/apps/keep/releases/1/index.html'), 'release\n');
    writeFileSync(at('var/www/apps/nobackup/data/b.txt'), 'not kept\n');

    const res = await t.call({ method: 'POST', url: '/api/backup/start', payload: { type: 'full' } });
    expect(res.statusCode).toBe(202);
    const made = await waitJob(t, res.json<{ jobId: number }>().jobId);
    expect(made.state, made.message ?? '').toBe('succeeded');
    const file = (made.result as { file: string }).file;
    const scratch = mkdtempSync(path.join(os.tmpdir(), 'mailroom-apppart-'));
    execFileSync('tar', ['-xf', path.join(t.dataDir, 'backups', file), '-C', scratch, 'host.tar.gz']);
    const listed = execFileSync('tar', ['-tzf', path.join(scratch, 'host.tar.gz')], {
      encoding: 'utf8',
    }).split('\n');
    rmSync(scratch, { recursive: true, force: true });
    expect(listed).toContain('var/www/apps/keep/data/uploads/a.txt');
    expect(listed.filter((f) => f.includes('apps/keep/releases'))).toEqual([]);
    expect(listed.filter((f) => f.includes('apps/nobackup'))).toEqual([]);
  }, 120_000);

  it("each app gets backups of its own on its Backup Frequency and Retention (fake clock), scope `app <name>`; a restore puts back only that app's data with owners and modes", async () => {
    let res = await t.call({
      method: 'PUT',
      url: '/api/system/settings/values',
      payload: { values: { backupHour: '2', timezone: 'UTC', backupFrequency: 'off' } },
    });
    expect(res.statusCode, res.body).toBe(200);
    if (asRoot) {
      chownSync(at('var/www/apps/keep/data/uploads/a.txt'), 12345, 12345);
      chmodSync(at('var/www/apps/keep/data/uploads/a.txt'), 0o640);
    }
    const env = {
      database: t.deps.database,
      locks: t.deps.locks!,
      dataDir: t.dataDir,
      backupDir: path.join(t.dataDir, 'backups'),
      host: t.deps.host,
    };
    const status = async () => BackupStatusAnswer.parse((await t.call({ url: '/api/backup/status' })).json());
    const settle = async () => {
      for (let i = 0; i < 2400; i++) {
        // Every backup job ended (a row is completed before its job prunes the older ones).
        const open = await t.deps.database.db
          .selectFrom('jobs')
          .select('id')
          .where('state', 'in', ['queued', 'running'])
          .execute();
        if (!open.length && !(await status()).backups.some((b) => b.status === 'active')) return;
        await new Promise((r) => setTimeout(r, 50));
      }
      throw new Error('app backups did not finish');
    };
    // Monday 2 to Wednesday 4 June 2025: daily, so one a day; the app without Enable Backup none.
    for (const d of ['2025-06-02', '2025-06-03', '2025-06-04']) {
      const ids = await siteScheduleTick(env, t.deps.jobs!, new Date(`${d}T12:00:00Z`));
      expect(ids).toHaveLength(1);
      expect(await siteScheduleTick(env, t.deps.jobs!, new Date(`${d}T13:00:00Z`))).toEqual([]);
      await settle();
    }
    const s = await status();
    expect(s.backups.filter((b) => b.status === 'failed').map((b) => b.message)).toEqual([]);
    const mine = s.backups.filter((b) => b.scope === 'app keep');
    expect(mine).toHaveLength(3);
    expect(mine.every((b) => b.name.startsWith('App backup keep '))).toBe(true);
    expect(s.backups.filter((b) => b.scope.includes('nobackup'))).toEqual([]);
    // Retention 2: the two newest stay.
    const kept = mine.filter((b) => b.status === 'completed');
    expect(kept.map((b) => b.createdAt.slice(0, 10)).sort()).toEqual(['2025-06-03', '2025-06-04']);
    const latest = kept.sort((a, b) => b.id - a.id)[0]!;
    const listed = execFileSync('tar', ['-xOf', latest.location, 'host.tar.gz']);
    const names = execFileSync('tar', ['-tz'], { input: listed, encoding: 'utf8' }).split('\n');
    expect(names).toContain('var/www/apps/keep/data/uploads/a.txt');
    expect(names.filter((f) => f && !f.startsWith('var/www/apps/keep/data'))).toEqual([]);

    // Lost: the upload is defaced (content, owner, mode), another goes; a release file and the
    // other app's data change too. The restore puts back the app's data only.
    writeFileSync(at('var/www/apps/keep/data/uploads/a.txt'), 'defaced\n');
    if (asRoot) chownSync(at('var/www/apps/keep/data/uploads/a.txt'), 0, 0);
    chmodSync(at('var/www/apps/keep/data/uploads/a.txt'), 0o666);
    writeFileSync(at('var/www/apps/keep/releases/1/index.html'), 'release changed\n');
    writeFileSync(at('var/www/apps/nobackup/data/b.txt'), 'changed too\n');
    res = await t.call({ method: 'POST', url: `/api/backups/${latest.id}/restore` });
    expect(res.statusCode).toBe(202);
    const restored = await waitJob(t, res.json<{ jobId: number }>().jobId);
    expect(restored.state, restored.message ?? '').toBe('succeeded');
    expect(restored.message ?? '').toContain('app keep');
    expect(readFileSync(at('var/www/apps/keep/data/uploads/a.txt'), 'utf8')).toBe('upload a\n');
    const st = statSync(at('var/www/apps/keep/data/uploads/a.txt'));
    expect(st.mode & 0o777).toBe(0o640);
    if (asRoot) expect([st.uid, st.gid]).toEqual([12345, 12345]);
    expect(readFileSync(at('var/www/apps/keep/releases/1/index.html'), 'utf8')).toBe('release changed\n');
    expect(readFileSync(at('var/www/apps/nobackup/data/b.txt'), 'utf8')).toBe('changed too\n');
    expect(existsSync(latest.location)).toBe(true);
  }, 300_000);
});
