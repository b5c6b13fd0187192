import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialects, startTestApp, type TestContext } from '../harness.ts';
import { FAST_JOBS, waitJob } from '../job-wait.ts';

// A restore replaces tables while the server keeps running: its own background writers (a job's
// heartbeat, the API and web roll-ups) hold tables in transactions of their own meanwhile.
const FAST = FAST_JOBS;

describe.each(dialects().filter((d) => d === 'postgres'))(
  'a restore beside other writers on %s',
  (dialect) => {
    let t: TestContext;
    beforeAll(async () => {
      t = await startTestApp(dialect, { jobs: FAST });
    });
    afterAll(async () => t.close());

    it('never holds a table while it waits for another: a statement that holds one and asks for the next is not ended, and the restore succeeds', async () => {
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

      // Two other sessions, as the server's own requests and writers: one holds mailboxes (a table the
      // restore replaces after admins and before sessions in its list) while the restore starts; the
      // other then holds sessions and asks for admins, as the session lookup does. A restore that had
      // taken admins and waited (for mailboxes, then for sessions) closed a lock cycle with the second,
      // and PostgreSQL ended that one: the request answered 500.
      const url = t.deps.database.postgresUrl!;
      const first = new pg.Client({ connectionString: url });
      const second = new pg.Client({ connectionString: url });
      await first.connect();
      await second.connect();
      try {
        await first.query('begin');
        await first.query('select count(*) from mailboxes');
        res = await t.call({ method: 'POST', url: `/api/backups/${backupId}/restore` });
        expect(res.statusCode, res.body).toBe(202);
        const jobId = res.json<{ jobId: number }>().jobId;
        await new Promise((r) => setTimeout(r, 1500));
        await second.query('begin');
        await second.query('select count(*) from sessions');
        const asked = second.query('select count(*) from admins').then(
          () => 'answered',
          (err: Error) => err.message,
        );
        await new Promise((r) => setTimeout(r, 300));
        await first.query('commit');
        expect(await asked).toBe('answered');
        await second.query('commit');
        const restored = await waitJob(t, jobId);
        expect(restored.state, restored.message ?? '').toBe('succeeded');
      } finally {
        await first.end();
        await second.end();
      }
      const domains = await sql<{ domain: string }>`select domain from mail_domains`.execute(
        t.deps.database.db,
      );
      expect(domains.rows.map((r) => r.domain)).toContain('kept.example');
    }, 120_000);
  },
);
