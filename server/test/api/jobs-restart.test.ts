import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/database.ts';
import { createLocks } from '../../src/db/locks.ts';
import { JobRunner } from '../../src/features/jobs/job-runner.service.ts';
import { freePort } from '../postgres-cluster.ts';

const MAIN = path.resolve(import.meta.dirname, '../../src/main.ts');
const ADMIN = { email: 'admin@example.com', password: 'restart-password-1' };

describe('a server killed in the middle of a job', () => {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'mailroom-restart-'));
  let proc: ChildProcess | null = null;
  afterAll(() => {
    if (proc?.pid && proc.exitCode === null && proc.signalCode === null) process.kill(proc.pid, 'SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('leaves the job running in the table; the next start marks it interrupted', async () => {
    const port = await freePort();
    proc = spawn(process.execPath, ['--import', import.meta.resolve('tsx'), MAIN], {
      env: {
        PATH: process.env.PATH,
        PORT: String(port),
        HOST: '127.0.0.1',
        MAILROOM_DATA_DIR: dataDir,
        MAILROOM_WEB_DIST: path.join(dataDir, 'no-web'),
        MAILROOM_WORKERS: '1',
        MAILROOM_RUN_DAEMONS: '0',
        MAILROOM_ADMIN_EMAIL: ADMIN.email,
        MAILROOM_ADMIN_PASSWORD: ADMIN.password,
        LOG_LEVEL: 'warn',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    proc.stdout!.on('data', (d: Buffer) => (out += d.toString()));
    proc.stderr!.on('data', (d: Buffer) => (out += d.toString()));
    const base = `http://127.0.0.1:${port}`;
    const deadline = Date.now() + 60_000;
    for (;;) {
      try {
        if ((await fetch(`${base}/auth/status`)).ok) break;
      } catch {
        /* not yet */
      }
      if (proc.exitCode !== null) throw new Error(`exited early:\n${out}`);
      if (Date.now() > deadline) throw new Error(`did not start:\n${out}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    const login = await fetch(`${base}/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(ADMIN),
    });
    const { api_key: key } = (await login.json()) as { api_key: string };
    const auth = { authorization: `Bearer ${key}` };
    await fetch(`${base}/api/mail/users/add`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ createDomain: true, email: 'box@restart.example', password: 'password-box-1' }),
    });
    const lines = ['source,destination'];
    for (let i = 0; i < 400_000; i++) lines.push(`r${i}@restart.example,box@restart.example`);
    const res = await fetch(`${base}/api/mail/aliases/import`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'text/csv' },
      body: lines.join('\n'),
    });
    expect(res.status, await res.clone().text()).toBe(202);
    const { jobId } = (await res.json()) as { jobId: number };

    // Progress is under way (read as another process would), then the process dies.
    const database = openDatabase({ dataDir });
    try {
      const db = database.db;
      for (let i = 0; ; i++) {
        const row = await db.selectFrom('jobs').selectAll().where('id', '=', jobId).executeTakeFirstOrThrow();
        if (row.state === 'running' && Number(row.processed) > 0) break;
        if (row.state !== 'running' || i > 600)
          throw new Error(`job did not make progress: ${JSON.stringify(row)}`);
        await new Promise((r) => setTimeout(r, 50));
      }
      process.kill(proc.pid!, 'SIGKILL');
      await new Promise((r) => proc!.once('exit', r));
      const left = await db.selectFrom('jobs').selectAll().where('id', '=', jobId).executeTakeFirstOrThrow();
      expect(left.state).toBe('running');

      // The next start (a runner on the same database) sweeps it once its heartbeat is stale.
      await new Promise((r) => setTimeout(r, 1200));
      const locks = createLocks(database);
      const runner = new JobRunner(db, locks, { staleMs: 1000 });
      await runner.start();
      await runner.close();
      await locks.close();
      const after = await db.selectFrom('jobs').selectAll().where('id', '=', jobId).executeTakeFirstOrThrow();
      expect(after.state).toBe('interrupted');
      expect(after.message).toBe('Interrupted: the server running it stopped');
      // Nothing half-imported: the import's one transaction never committed (the domain's
      // postmaster@/abuse@ system aliases are not the import's).
      const n = await db
        .selectFrom('mail_aliases')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('system', '=', 0)
        .executeTakeFirstOrThrow();
      expect(Number(n.n)).toBe(0);
    } finally {
      await database.close();
    }
  });
});
