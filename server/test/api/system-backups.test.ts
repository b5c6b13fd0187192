import { promises as fs } from 'node:fs';
import path from 'node:path';
import { BackupStatusAnswer } from '@mailroom/contract/system-admin';
import type { Job } from '@mailroom/contract/jobs';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { zoneForm } from '../dns-zone-form.ts';
import { ADMIN, dialects, startTestApp, type TestContext } from '../harness.ts';
import { scheduleTick } from '../../src/features/system/backups/backup-scheduler.job.ts';

const FAST = { heartbeatMs: 50, persistMs: 20, pollMs: 50, staleMs: 5000 };

async function waitJob(t: TestContext, id: number): Promise<Job> {
  for (let i = 0; i < 1200; i++) {
    const res = await t.call({ url: `/api/jobs/${id}` });
    const job = res.json<Job>();
    if (!['queued', 'running'].includes(job.state)) return job;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`job ${id} did not finish`);
}

/** Every table's rows (ordered), except the server's own running state. */
async function snapshot(t: TestContext): Promise<Record<string, unknown[]>> {
  const db = t.deps.database.db;
  const out: Record<string, unknown[]> = {};
  for (const table of [
    'admins',
    'mail_domains',
    'mailboxes',
    'mail_aliases',
    'dns_zones',
    'dns_records',
    'mail_settings',
    'system_settings',
  ])
    out[table] = (await sql.raw(`select * from ${table} order by 1`).execute(db)).rows.map((row) => {
      // When and how the files were last applied: a restore applies them again (and records it).
      const { applied_at: _a, check_ok: _c, check_output: _o, ...data } = row as Record<string, unknown>;
      // A zone changed after the backup (e.g. by the DKIM key made after the domain) comes back
      // under a higher serial, never a lower one (tested below): the serial is not data here.
      if (table === 'dns_zones') {
        const { serial: _s, updated_at: _u, ...zone } = data;
        return zone;
      }
      return data;
    });
  return out;
}

describe.each(dialects())('backups on %s', (dialect) => {
  let t: TestContext;
  beforeAll(async () => {
    t = await startTestApp(dialect, { jobs: FAST });
  });
  afterAll(async () => t.close());

  const status = async () => BackupStatusAnswer.parse((await t.call({ url: '/api/backup/status' })).json());
  const start = async (type: 'full' | 'incremental') => {
    const res = await t.call({ method: 'POST', url: '/api/backup/start', payload: { type } });
    expect(res.statusCode).toBe(202);
    return waitJob(t, res.json<{ jobId: number }>().jobId);
  };

  it('backs up, wipes, restores to identical data and files; incremental on top; refuses a corrupt archive', async () => {
    // Some real data: a domain, mailboxes, aliases, a DNS zone, settings, and files in the data folder.
    const dom = await t.call({
      method: 'POST',
      url: '/api/mail/domains/add',
      payload: { domain: 'backup.example' },
    });
    expect(dom.statusCode, dom.body).toBeLessThan(300);
    for (let i = 0; i < 5; i++) {
      const mb = await t.call({
        method: 'POST',
        url: '/api/mail/users/add',
        payload: { email: `user${i}@backup.example`, password: 'a-long-password-1', quota: 1024 },
      });
      expect(mb.statusCode, mb.body).toBeLessThan(300);
    }
    await t.call({
      method: 'PUT',
      url: '/api/system/settings/values',
      payload: { values: { systemName: 'Before' } },
    });
    await fs.mkdir(path.join(t.dataDir, 'mail', 'backup.example', 'user0', 'cur'), { recursive: true });
    const mailFile = path.join(t.dataDir, 'mail', 'backup.example', 'user0', 'cur', '1.eml');
    await fs.writeFile(mailFile, 'Subject: hi\n\nkept\n');

    const job = await start('full');
    expect(job.state, job.message ?? '').toBe('succeeded');
    const before = await snapshot(t);
    expect((before.mailboxes ?? []).length).toBe(5);
    let s = await status();
    const full = s.backups[0]!;
    expect(full).toMatchObject({ type: 'Full', status: 'completed' });
    expect(full.sizeBytes).toBeGreaterThan(1000);
    expect((await fs.stat(full.location)).size).toBe(full.sizeBytes);

    // Download answers the archive itself.
    const dl = await t.call({ url: `/api/backups/${full.id}/download` });
    expect(dl.statusCode).toBe(200);
    expect(dl.rawPayload.length).toBe(full.sizeBytes);

    // The drill: restore into a scratch folder, counts and checksums compared, shown as last verified.
    const drill = await t.call({ method: 'POST', url: `/api/backups/${full.id}/verify` });
    expect(drill.statusCode).toBe(202);
    expect((await waitJob(t, drill.json<{ jobId: number }>().jobId)).state).toBe('succeeded');
    s = await status();
    expect(s.lastVerified).toMatchObject({ backupId: full.id, ok: true });
    expect(s.lastVerified!.result).toMatch(/checksums match; \d+ tables, \d+ rows; \d+ files/);

    // Changes after the full backup, then an incremental one.
    await fs.writeFile(path.join(t.dataDir, 'mail', 'backup.example', 'user0', 'cur', '2.eml'), 'second\n');
    const extra = await t.call({
      method: 'POST',
      url: '/api/mail/users/add',
      payload: { email: 'late@backup.example', password: 'a-long-password-1', quota: 1024 },
    });
    expect(extra.statusCode).toBeLessThan(300);
    const incJob = await start('incremental');
    expect(incJob.state, incJob.message ?? '').toBe('succeeded');
    const afterInc = await snapshot(t);
    s = await status();
    const inc = s.backups[0]!;
    expect(inc).toMatchObject({ type: 'Incremental', status: 'completed', baseId: full.id });

    // Wipe: data and files gone.
    const db = t.deps.database.db;
    await db.deleteFrom('mail_aliases').execute();
    await db.deleteFrom('mailboxes').execute();
    await db.deleteFrom('mail_domains').execute();
    await db
      .updateTable('system_settings')
      .set({ value: 'Wiped' })
      .where('name', '=', 'systemName')
      .execute();
    await fs.rm(path.join(t.dataDir, 'mail'), { recursive: true, force: true });
    await fs.writeFile(path.join(t.dataDir, 'stray-after-backup.txt'), 'not in the backup');

    // Restore the full backup: the state at that time.
    let res = await t.call({ method: 'POST', url: `/api/backups/${full.id}/restore` });
    expect(res.statusCode).toBe(202);
    let rj = await waitJob(t, res.json<{ jobId: number }>().jobId);
    expect(rj.state, rj.message ?? '').toBe('succeeded');
    expect(await snapshot(t)).toEqual(before);
    expect(await fs.readFile(mailFile, 'utf8')).toBe('Subject: hi\n\nkept\n');
    await expect(
      fs.access(path.join(t.dataDir, 'mail', 'backup.example', 'user0', 'cur', '2.eml')),
    ).rejects.toThrow();
    await expect(fs.access(path.join(t.dataDir, 'stray-after-backup.txt'))).rejects.toThrow();

    // Restore the incremental one: base plus the changes.
    res = await t.call({ method: 'POST', url: `/api/backups/${inc.id}/restore` });
    rj = await waitJob(t, res.json<{ jobId: number }>().jobId);
    expect(rj.state, rj.message ?? '').toBe('succeeded');
    expect(await snapshot(t)).toEqual(afterInc);
    expect(
      await fs.readFile(path.join(t.dataDir, 'mail', 'backup.example', 'user0', 'cur', '2.eml'), 'utf8'),
    ).toBe('second\n');

    // The API still answers with the restored data (the requester's session is the one kept).
    const list = await t.call({ url: '/api/mail/users?domain=backup.example' });
    expect(list.statusCode).toBe(200);

    // A corrupt archive is refused with a clear message, nothing restored.
    const archive = (await status()).backups.find((b) => b.id === full.id)!.location;
    const bytes = await fs.readFile(archive);
    const mid = Math.floor(bytes.length / 2);
    bytes[mid] = (bytes[mid] ?? 0) ^ 0xff;
    await fs.writeFile(archive, bytes);
    await db
      .updateTable('system_settings')
      .set({ value: 'After corruption' })
      .where('name', '=', 'systemName')
      .execute();
    res = await t.call({ method: 'POST', url: `/api/backups/${full.id}/restore` });
    rj = await waitJob(t, res.json<{ jobId: number }>().jobId);
    expect(rj.state).toBe('failed');
    expect(rj.message).toMatch(/The backup archive is damaged: its checksum does not match/);
    const name = await db
      .selectFrom('system_settings')
      .select('value')
      .where('name', '=', 'systemName')
      .executeTakeFirst();
    expect(name?.value).toBe('After corruption');
    // The drill says so too.
    res = await t.call({ method: 'POST', url: `/api/backups/${full.id}/verify` });
    expect((await waitJob(t, res.json<{ jobId: number }>().jobId)).state).toBe('failed');
    expect((await status()).lastVerified).toMatchObject({ backupId: full.id, ok: false });

    // A full backup another depends on cannot be deleted first; the incremental can.
    res = await t.call({ method: 'DELETE', url: `/api/backups/${full.id}` });
    expect(res.statusCode).toBe(409);
    res = await t.call({ method: 'DELETE', url: `/api/backups/${inc.id}` });
    expect(res.statusCode).toBe(200);
    await expect(fs.access(inc.location)).rejects.toThrow();
    expect((await t.call({ method: 'DELETE', url: `/api/backups/${inc.id}` })).statusCode).toBe(404);
    expect((await t.call({ method: 'POST', url: '/api/backups/abc/restore' })).statusCode).toBe(400);
  }, 120_000); // three restores, each applying the mail and DNS files again (real checkers)

  it('never restores security state: sessions are ended but the requester’s, lockouts and sign-in attempts stay live', async () => {
    const db = t.deps.database.db;
    const login = async (payload: object) => t.app.inject({ method: 'POST', url: '/auth/login', payload });
    const asKey = (key: string) =>
      t.app.inject({ url: '/api/system/services', headers: { authorization: `Bearer ${key}` } });
    // A second administrator, in the backup.
    const bob = { email: 'bob-restore@example.com', password: 'bob-restore-password-1' };
    const added = await t.call({ method: 'POST', url: '/api/accounts', payload: { ...bob, role: 'admin' } });
    expect(added.statusCode, added.body).toBeLessThan(300);
    const before = (await login(ADMIN)).json<{ api_key: string }>().api_key;
    const bobKey = (await login(bob)).json<{ api_key: string }>().api_key;
    expect((await asKey(before)).statusCode).toBe(200);

    const job = await start('full');
    expect(job.state, job.message ?? '').toBe('succeeded');
    const backupId = (job.result as { backupId: number }).backupId;

    // After the backup: one session signs out, a new one signs in, a wrong password is tried,
    // and bob is locked out.
    expect(
      (
        await t.app.inject({
          method: 'POST',
          url: '/auth/logout',
          headers: { authorization: `Bearer ${before}` },
        })
      ).statusCode,
    ).toBe(200);
    expect((await asKey(before)).statusCode).toBe(401);
    const after = (await login(ADMIN)).json<{ api_key: string }>().api_key;
    expect((await asKey(after)).statusCode).toBe(200);
    expect((await login({ email: bob.email, password: 'wrong-password-123' })).statusCode).toBe(401);
    const attempts = async () =>
      Number(
        (
          await db
            .selectFrom('login_attempts')
            .select((eb) => eb.fn.countAll().as('n'))
            .where('bucket', '=', `account:${bob.email}`)
            .executeTakeFirstOrThrow()
        ).n,
      );
    const attemptsBefore = await attempts();
    expect(attemptsBefore).toBeGreaterThan(0);
    const bobId = (
      await db.selectFrom('admins').select('id').where('email', '=', bob.email).executeTakeFirstOrThrow()
    ).id;
    await db
      .insertInto('mfa_lockouts')
      .values({
        admin_id: bobId,
        lockout_type: 'mfa',
        reason: 'Too many failed second-factor attempts',
        locked_at: new Date().toISOString(),
        expires_at: new Date(Date.now() + 15 * 60_000).toISOString(),
        unlocked_at: null,
        unlocked_by: null,
        attempts: 5,
        ip: '192.0.2.9',
      })
      .execute();

    const res = await t.call({ method: 'POST', url: `/api/backups/${backupId}/restore` });
    expect(res.statusCode).toBe(202);
    const rj = await waitJob(t, res.json<{ jobId: number }>().jobId);
    expect(rj.state, rj.message ?? '').toBe('succeeded');

    // The session signed out after the backup stays out; the newer ones are ended; the requester stays.
    expect((await asKey(before)).statusCode).toBe(401);
    expect((await asKey(after)).statusCode).toBe(401);
    expect((await asKey(bobKey)).statusCode).toBe(401);
    expect((await t.call({ url: '/api/system/services' })).statusCode).toBe(200);
    const left = await db.selectFrom('sessions').select('id').execute();
    expect(left).toHaveLength(1);
    // Throttling and lockouts are live state: never rewound.
    expect(await attempts()).toBe(attemptsBefore);
    const locks = await db
      .selectFrom('mfa_lockouts')
      .innerJoin('admins', 'admins.id', 'mfa_lockouts.admin_id')
      .select(['admins.email', 'mfa_lockouts.attempts'])
      .execute();
    expect(locks).toEqual([{ email: bob.email, attempts: 5 }]);
    expect(rj.message).toContain('sessions ended except the one that asked for the restore');
  });

  it('never rewinds a zone serial: a zone the restore took back is served with a serial above the one before', async () => {
    const zone = 'serial-restore.example';
    const add = await t.call({ method: 'POST', url: '/api/dns/zones/add', payload: zoneForm(zone) });
    expect(add.statusCode, add.body).toBe(200);
    const serial = async () =>
      (await t.call({ url: `/api/dns/zones/${zone}/zonefile` })).json<{ serial: number; content: string }>();
    const job = await start('full');
    expect(job.state, job.message ?? '').toBe('succeeded');
    const backupId = (job.result as { backupId: number }).backupId;
    const atBackup = (await serial()).serial;
    // A change after the backup: secondaries have seen a higher serial since.
    const rec = await t.call({
      method: 'POST',
      url: '/api/dns/records/add',
      payload: { zone, qname: 'late', rtype: 'A', value: '192.0.2.7', ttl: 3600 },
    });
    expect(rec.statusCode, rec.body).toBe(200);
    const served = (await serial()).serial;
    expect(served).toBeGreaterThan(atBackup);

    const res = await t.call({ method: 'POST', url: `/api/backups/${backupId}/restore` });
    expect(res.statusCode).toBe(202);
    const rj = await waitJob(t, res.json<{ jobId: number }>().jobId);
    expect(rj.state, rj.message ?? '').toBe('succeeded');
    const after = await serial();
    // The restored zone (without the late record), under a serial above the one served before.
    expect(after.content).not.toContain('192.0.2.7');
    expect(after.serial).toBeGreaterThan(served);
    expect(after.content).toContain(String(after.serial));
  });

  it('schedules once per slot (across restarts: the slot is on the row) and applies retention', async () => {
    await t.call({
      method: 'PUT',
      url: '/api/system/settings/values',
      payload: { values: { backupFrequency: 'daily', backupHour: '0', backupRetentionDays: '1' } },
    });
    const env = {
      database: t.deps.database,
      locks: t.deps.locks!,
      dataDir: t.dataDir,
      backupDir: path.join(t.dataDir, 'backups'),
    };
    const first = await scheduleTick(env, t.deps.jobs!);
    expect(first).toBeTypeOf('number');
    expect(await scheduleTick(env, t.deps.jobs!)).toBeNull();
    const jobs = await t.deps.database.db
      .selectFrom('jobs')
      .select(['id'])
      .where('kind', '=', 'system.backup.create')
      .orderBy('id', 'desc')
      .execute();
    expect((await waitJob(t, Number(jobs[0]!.id))).state).toBe('succeeded');
    const { applyRetention } = await import('../../src/features/system/backups/backup.service.ts');
    const expired = await applyRetention(env, Date.now() + 3 * 86_400_000);
    expect(expired).toBeGreaterThan(0);
    const s = await status();
    // The scheduled one (kept 1 day) is gone; the earlier ones were made with 30 days and stay.
    const scheduled = s.backups.find((b) => b.id === first)!;
    expect(scheduled).toMatchObject({ status: 'expired', description: 'Scheduled daily backup' });
    await expect(fs.access(path.join(env.backupDir, `backup-${first}-full.tar`))).rejects.toThrow();
    await expect(fs.access(path.join(env.backupDir, `backup-${first}-incremental.tar`))).rejects.toThrow();
  });
});
