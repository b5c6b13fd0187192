import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { buildApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import { openDatabase } from '../../src/db/database.ts';
import { Host } from '../../src/host/host.ts';
import { eventually } from '../eventually.ts';
import { dialects } from '../harness.ts';
import { freePort } from '../postgres-cluster.ts';

const MAIN = path.resolve(import.meta.dirname, '../../src/main.ts');
const ADMIN = { email: 'admin@example.com', password: 'resume-password-1' };
const N = 300;

async function pgDatabase(): Promise<string> {
  const base = inject('pgUrl')!;
  const name = `t_resume_${Date.now()}_${process.pid}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  return base.replace(/\/postgres$/, `/${name}`);
}

describe.each(dialects())('a bulk run on %s whose server is killed (kill -9) mid-run', (dialect) => {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'mailroom-bulk-resume-'));
  let proc: ChildProcess | null = null;
  afterAll(() => {
    if (proc?.pid && proc.exitCode === null && proc.signalCode === null) process.kill(proc.pid, 'SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('resumes at the next start: exactly N created, none twice, the job finished by resume', async () => {
    const databaseUrl = dialect === 'postgres' ? await pgDatabase() : undefined;
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
        ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
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
    const call = async (p: string, body: unknown) => {
      const res = await fetch(`${base}/api/${p}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      return { status: res.status, json: (await res.json()) as Record<string, unknown> };
    };
    expect((await call('mail/domains/add', { domain: 'resume.example' })).status).toBe(200);
    const lines = ['email,password'];
    for (let i = 0; i < N; i++) lines.push(`r${i}@resume.example,password-${i}-long`);
    const plan = await call('bulk/plans', {
      operation: 'mail.mailbox.create',
      target: { kind: 'csv', csv: lines.join('\n') },
      config: { targetItems: 'csv', batchSize: 10, continueOnError: false },
    });
    expect(plan.status, JSON.stringify(plan.json)).toBe(200);
    const runId = (plan.json.run as { id: number }).id;
    expect((await call(`bulk/runs/${runId}/start`, {})).status).toBe(202);

    const database = openDatabase(databaseUrl ? { databaseUrl, dataDir } : { dataDir });
    const db = database.db;
    const succeeded = async () =>
      Number(
        (
          await db
            .selectFrom('bulk_items')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .where('run_id', '=', runId)
            .where('state', '=', 'succeeded')
            .executeTakeFirstOrThrow()
        ).n,
      );
    const boxes = async () =>
      Number(
        (
          await db
            .selectFrom('mailboxes')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .where('domain', '=', 'resume.example')
            .executeTakeFirstOrThrow()
        ).n,
      );
    let app: Awaited<ReturnType<typeof buildApp>> | null = null;
    try {
      // About a third done, then the process dies without a word.
      await eventually('a third done', succeeded, (n) => n >= N / 3, 120_000);
      process.kill(proc.pid!, 'SIGKILL');
      await new Promise((r) => proc!.once('exit', r));
      const at = await succeeded();
      expect(at).toBeLessThan(N);
      // The ledger and the mailboxes agree at the moment of the crash (one transaction per batch).
      expect(await boxes()).toBe(at);
      const run = await db
        .selectFrom('bulk_runs')
        .selectAll()
        .where('id', '=', runId)
        .executeTakeFirstOrThrow();
      expect(run.state).toBe('running');
      const job = await db
        .selectFrom('jobs')
        .selectAll()
        .where('id', '=', Number(run.job_id))
        .executeTakeFirstOrThrow();
      expect(job.state).toBe('running');

      // The next start, on the same database: the stale job is queued again and resumed.
      await new Promise((r) => setTimeout(r, 1200));
      const config = loadConfig({
        MAILROOM_DATA_DIR: dataDir,
        MAILROOM_WEB_DIST: path.join(dataDir, 'no-web'),
        ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
      });
      app = await buildApp(
        { config, database, host: new Host(config.hostRoot, false) },
        { jobs: { staleMs: 1000, pollMs: 100 } },
      );
      const ended = await eventually(
        'the run ends',
        () => db.selectFrom('bulk_runs').selectAll().where('id', '=', runId).executeTakeFirstOrThrow(),
        (r) => r.state !== 'running',
        120_000,
      );
      expect(ended.state).toBe('completed');
      expect(await boxes()).toBe(N);
      expect(await succeeded()).toBe(N);
      // Never done twice: one audit line per mailbox of this run.
      const audit = await db
        .selectFrom('audit_log')
        .select('target')
        .where('action', '=', 'mail.mailbox.create')
        .where('details', 'like', `%"bulkRun":${runId},%`)
        .execute();
      expect(audit).toHaveLength(N);
      expect(new Set(audit.map((a) => a.target)).size).toBe(N);
      const job2 = await db
        .selectFrom('jobs')
        .selectAll()
        .where('id', '=', Number(ended.job_id))
        .executeTakeFirstOrThrow();
      expect(job2.state).toBe('succeeded');
      expect(Number(job2.resumable)).toBe(1);
    } finally {
      await app?.close();
      await database.close();
    }
  }, 240_000);
});
