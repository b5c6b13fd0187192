import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BackupStatusAnswer } from '@mailroom/contract/system-admin';
import { dialects, startTestApp, type TestContext } from '../harness.ts';
import { FAST_JOBS, waitJob } from '../job-wait.ts';
import { siteScheduleTick } from '../../src/features/system/backups/backup-scheduler.job.ts';
import { applyRetention } from '../../src/features/system/backups/backup.service.ts';

// The sites' files live outside the data folder in system mode (under /var/www): here the host
// root is a temporary folder outside the data folder, as / is there. A site with Enable Backup is
// archived by the system backup job (host.tar.gz) and put back by its restore; one without is not.
const FAST = FAST_JOBS;

describe.each(dialects())('site backups through the system backups on %s', (dialect) => {
  let t: TestContext;
  let root: string;
  const at = (p: string) => path.join(root, p);

  beforeAll(async () => {
    root = mkdtempSync(path.join(os.tmpdir(), 'mailroom-siteroot-'));
    // The app's own scheduler (real clock) stays out of the way of the fake clock below.
    process.env.MAILROOM_BACKUP_SCHEDULE_MS = String(24 * 3600_000);
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
  }, 120_000);

  it('each site gets backups of its own on its own schedule and retention (fake clock); system backups untouched', async () => {
    const add = async (domain: string, backupFrequency: string, backupRetention: number) => {
      const res = await t.call({
        method: 'POST',
        url: '/api/web/vhosts/add',
        payload: {
          domain,
          serverName: domain,
          documentRoot: `/var/www/${domain}`,
          enableBackup: true,
          backupFrequency,
          backupRetention,
        },
      });
      expect(res.statusCode, res.body).toBe(200);
    };
    await add('daily.example.com', 'daily', 3);
    await add('weekly.example.com', 'weekly', 2);
    await add('monthly.example.com', 'monthly', 5);
    await add('never.example.com', 'never', 5);
    let res = await t.call({
      method: 'PUT',
      url: '/api/system/settings/values',
      payload: { values: { backupHour: '2', timezone: 'UTC', backupFrequency: 'off' } },
    });
    expect(res.statusCode, res.body).toBe(200);
    const status = async () => BackupStatusAnswer.parse((await t.call({ url: '/api/backup/status' })).json());
    // A system backup made before: the sites' retention never touches it.
    res = await t.call({ method: 'POST', url: '/api/backup/start', payload: { type: 'full' } });
    const system = await waitJob(t, res.json<{ jobId: number }>().jobId);
    expect(system.state, system.message ?? '').toBe('succeeded');
    const systemId = (system.result as { backupId: number }).backupId;

    const env = {
      database: t.deps.database,
      locks: t.deps.locks!,
      dataDir: t.dataDir,
      backupDir: path.join(t.dataDir, 'backups'),
      host: t.deps.host,
    };
    const settle = async () => {
      for (let i = 0; i < 2400; i++) {
        if (!(await status()).backups.some((b) => b.status === 'active')) return;
        await new Promise((r) => setTimeout(r, 50));
      }
      throw new Error('site backups did not finish');
    };
    // Before the backup hour: nothing is due.
    expect(await siteScheduleTick(env, t.deps.jobs!, new Date('2025-06-01T01:30:00Z'))).toEqual([]);
    // Sunday 1 June 2025 to Sunday 15 June, one look at 12:00 and one at 13:00 UTC each day.
    const madeOn: Record<string, number> = {};
    for (let day = 1; day <= 15; day++) {
      const d = `2025-06-${String(day).padStart(2, '0')}`;
      const ids = await siteScheduleTick(env, t.deps.jobs!, new Date(`${d}T12:00:00Z`));
      // The slot is on the row: a second look the same day makes nothing.
      expect(await siteScheduleTick(env, t.deps.jobs!, new Date(`${d}T13:00:00Z`))).toEqual([]);
      madeOn[d] = ids.length;
      await settle();
    }
    // daily every day; weekly on the Sundays (1, 8, 15: with kept.example.com of the test above,
    // weekly by default); monthly on the 1st; never not at all.
    expect(madeOn['2025-06-01']).toBe(4);
    expect(madeOn['2025-06-02']).toBe(1);
    expect(madeOn['2025-06-08']).toBe(3);
    expect(madeOn['2025-06-15']).toBe(3);

    const s = await status();
    const of = (domain: string) =>
      s.backups.filter((b) => b.scope === `site ${domain}` && b.createdAt.startsWith('2025-06-'));
    const failed = s.backups.filter((b) => b.status === 'failed');
    expect(failed.map((b) => b.message)).toEqual([]);
    const daily = of('daily.example.com');
    expect(daily).toHaveLength(15);
    const kept = daily.filter((b) => b.status === 'completed');
    // Retention 3: the three newest (13, 14, 15 June) stay, the other twelve are expired.
    expect(kept.map((b) => b.createdAt.slice(0, 10)).sort()).toEqual([
      '2025-06-13',
      '2025-06-14',
      '2025-06-15',
    ]);
    expect(daily.filter((b) => b.status === 'expired')).toHaveLength(12);
    const backups = path.join(t.dataDir, 'backups');
    for (const b of daily)
      expect(existsSync(b.location) && b.location !== backups, b.name).toBe(b.status === 'completed');
    const weekly = of('weekly.example.com');
    expect(weekly).toHaveLength(3);
    expect(weekly.filter((b) => b.status === 'completed').map((b) => b.createdAt.slice(0, 10))).toEqual([
      '2025-06-15',
      '2025-06-08',
    ]);
    expect(of('monthly.example.com').map((b) => b.status)).toEqual(['completed']);
    expect(of('never.example.com')).toEqual([]);
    // The system backup is untouched by the sites' retention, and by its own retention the sites'
    // backups are not touched either (they follow their site's count, not the days).
    const sys = s.backups.find((b) => b.id === systemId)!;
    expect(sys.scope).toBe('system');
    expect(sys.status).toBe('completed');
    expect(existsSync(sys.location)).toBe(true);
    // An incremental system backup builds on the last system backup, never on a site's.
    res = await t.call({ method: 'POST', url: '/api/backup/start', payload: { type: 'incremental' } });
    const incr = await waitJob(t, res.json<{ jobId: number }>().jobId);
    expect(incr.state, incr.message ?? '').toBe('succeeded');
    const incrRow = (await status()).backups.find(
      (b) => b.id === (incr.result as { backupId: number }).backupId,
    )!;
    expect(incrRow.type).toBe('Incremental');
    expect(incrRow.baseId).toBe(systemId);

    // A year on, the system retention expires the system backups; the sites' own stay.
    expect(await applyRetention(env, Date.now() + 365 * 86_400_000)).toBeGreaterThan(0);
    const after = await status();
    expect(after.backups.filter((b) => b.scope !== 'system' && b.status === 'completed')).toHaveLength(
      3 + 2 + 1 + 3,
    );
    // The same restore: a site's backup puts that site's files back and nothing else (a host added
    // since stays: a system restore would have taken the database back).
    const latest = kept.sort((a, b) => b.id - a.id)[0]!;
    const index = readFileSync(at('var/www/daily.example.com/index.html'), 'utf8');
    writeFileSync(at('var/www/daily.example.com/index.html'), 'defaced\n');
    res = await t.call({
      method: 'POST',
      url: '/api/web/vhosts/add',
      payload: {
        domain: 'later.example.com',
        serverName: 'later.example.com',
        documentRoot: '/var/www/later.example.com',
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    res = await t.call({ method: 'POST', url: `/api/backups/${latest.id}/verify` });
    expect(res.statusCode).toBe(202);
    const drill = await waitJob(t, res.json<{ jobId: number }>().jobId);
    expect(drill.state, drill.message ?? '').toBe('succeeded');
    res = await t.call({ method: 'POST', url: `/api/backups/${latest.id}/restore` });
    expect(res.statusCode).toBe(202);
    const restored = await waitJob(t, res.json<{ jobId: number }>().jobId);
    expect(restored.state, restored.message ?? '').toBe('succeeded');
    expect(restored.message ?? '').toContain('site daily.example.com');
    expect(readFileSync(at('var/www/daily.example.com/index.html'), 'utf8')).toBe(index);
    res = await t.call({ url: '/api/web/vhosts/later.example.com' });
    expect(res.statusCode, res.body).toBe(200);
  }, 300_000);
});
