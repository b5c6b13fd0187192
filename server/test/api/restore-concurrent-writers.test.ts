import type { Job } from '@mailroom/contract/jobs';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialects, startTestApp, type TestContext } from '../harness.ts';

// A restore replaces tables while the server keeps running: its own background writers (a job's
// heartbeat, the API and web roll-ups) hold tables in transactions of their own meanwhile.
const FAST = { heartbeatMs: 50, persistMs: 20, pollMs: 50, staleMs: 5000 };

async function waitJob(t: TestContext, id: number): Promise<Job> {
  for (let i = 0; i < 2400; i++) {
    const job = (await t.call({ url: `/api/jobs/${id}` })).json<Job>();
    if (!['queued', 'running'].includes(job.state)) return job;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`job ${id} did not finish`);
}

describe.each(dialects().filter((d) => d === 'postgres'))(
  'a restore beside other writers on %s',
  (dialect) => {
    let t: TestContext;
    beforeAll(async () => {
      t = await startTestApp(dialect, { jobs: FAST });
    });
    afterAll(async () => t.close());

    it('a deadlock with a writer holding a replaced table ends the attempt, not the restore: it runs again and succeeds', async () => {
      const add = await t.call({
        method: 'POST',
        url: '/api/mail/domains/add',
        payload: { domain: 'kept.example' },
      });
      expect(add.statusCode, add.body).toBeLessThan(300);
      let res = await t.call({ method: 'POST', url: '/api/backup/start', payload: { type: 'full' } });
      const made = await waitJob(t, res.json<{ jobId: number }>().jobId);
      expect(made.state, made.message ?? '').toBe('succeeded');
      const { backupId } = made.result as { backupId: number };
      await t.call({ method: 'POST', url: '/api/mail/domains/remove/kept.example' });

      // Another writer: holds mailboxes (replaced by the restore), and once the restore waits for it,
      // asks for admin_domains, which the restore's TRUNCATE took before: a lock cycle.
      const url = t.deps.database.postgresUrl!;
      const writer = new pg.Client({ connectionString: url });
      await writer.connect();
      const watcher = new pg.Client({ connectionString: url });
      await watcher.connect();
      try {
        await writer.query('begin');
        await writer.query('select count(*) from mailboxes');
        res = await t.call({ method: 'POST', url: `/api/backups/${backupId}/restore` });
        expect(res.statusCode, res.body).toBe(202);
        const jobId = res.json<{ jobId: number }>().jobId;
        const writerPid = (await writer.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0]!
          .pid;
        // The restore's transaction waits for the writer's lock.
        for (let i = 0; ; i++) {
          const waiting = await watcher.query(
            `select 1 from pg_locks l join pg_stat_activity a on a.pid = l.pid
            where not l.granted and a.datname = current_database() and a.pid <> $1`,
            [writerPid],
          );
          if (waiting.rowCount) break;
          if (i > 600) throw new Error('the restore never waited for the writer');
          await new Promise((r) => setTimeout(r, 50));
        }
        await writer.query('select count(*) from admin_domains');
        await writer.query('commit');
        const restored = await waitJob(t, jobId);
        expect(restored.state, restored.message ?? '').toBe('succeeded');
      } finally {
        await writer.end();
        await watcher.end();
      }
      const domains = await sql<{ domain: string }>`select domain from mail_domains`.execute(
        t.deps.database.db,
      );
      expect(domains.rows.map((r) => r.domain)).toContain('kept.example');
    }, 120_000);
  },
);
