import type { AddressInfo } from 'node:net';
import type { Job } from '@mailroom/contract/jobs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.ts';
import type { AppDeps } from '../../src/app-deps.ts';
import { openDatabase } from '../../src/db/database.ts';
import { JobRunner } from '../../src/features/jobs/job-runner.service.ts';
import { importAliases } from '../../src/features/mail/aliases/alias-import.service.ts';
import { ADMIN, dialects, startTestApp, type TestContext } from '../harness.ts';

const FAST = { heartbeatMs: 50, persistMs: 20, pollMs: 50, staleMs: 500 };

/** A CSV of `n` aliases with some refusals mixed in (bad address, duplicate, missing field). */
function bigAliasCsv(n: number, domain: string): string {
  const lines = ['source,destination'];
  for (let i = 0; i < n; i++) {
    if (i % 1000 === 7) lines.push(`not-an-address-${i},box@${domain}`);
    else if (i % 1000 === 8) lines.push(`a${i - 1}@${domain},box@${domain}`);
    else if (i % 1000 === 9) lines.push(`a${i}@${domain},`);
    else lines.push(`a${i}@${domain},box@${domain}`);
  }
  return lines.join('\n') + '\n';
}

async function until<T>(what: string, f: () => Promise<T | undefined>, ms = 20_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await f();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe.each(dialects())('jobs on %s', (dialect) => {
  let t: TestContext;
  beforeAll(async () => {
    t = await startTestApp(dialect, { jobs: FAST });
  });
  afterAll(async () => t.close());

  const getJob = async (id: number) => {
    const res = await t.call({ method: 'GET', url: `/api/jobs/${id}` });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<Job>();
  };
  const finished = (id: number) =>
    until(`job ${id} to end`, async () => {
      const j = await getJob(id);
      return ['queued', 'running'].includes(j.state) ? undefined : j;
    });

  it('runs a job that reports progress and ends with its result', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const job = await t.deps.jobs!.run('test.count', 'Counting', 'admin@example.com', async (ctx) => {
      ctx.progress({ phase: 'Counting', processed: 0, total: 10 });
      for (let i = 1; i <= 5; i++) ctx.progress({ processed: i });
      await gate;
      for (let i = 6; i <= 10; i++) ctx.progress({ processed: i });
      return { result: { counted: 10 }, counts: { counted: 10 } };
    });
    expect(job.state).toBe('running');
    // The progress reaches the table (another process reads it there).
    const mid = await until('progress in the table', async () => {
      const j = await getJob(job.id);
      return j.processed === 5 ? j : undefined;
    });
    expect(mid).toMatchObject({
      state: 'running',
      phase: 'Counting',
      total: 10,
      startedBy: 'admin@example.com',
    });
    release();
    const done = await finished(job.id);
    expect(done).toMatchObject({
      state: 'succeeded',
      processed: 10,
      result: { counted: 10 },
      counts: { counted: 10 },
    });
    expect(done.finishedAt).not.toBeNull();
    const list = await t.call({ method: 'GET', url: '/api/jobs?state=succeeded' });
    expect(list.json<Job[]>().map((j) => j.id)).toContain(job.id);
  });

  it('cancels a running job at its next checkpoint; a finished job cannot be cancelled', async () => {
    let steps = 0;
    const job = await t.deps.jobs!.run('test.loop', 'Looping', null, async (ctx) => {
      for (;;) {
        steps++;
        ctx.progress({ processed: steps });
        await new Promise((r) => setTimeout(r, 5));
        await ctx.checkpoint();
      }
    });
    await until('a few steps', async () => (steps > 3 ? true : undefined));
    const res = await t.call({ method: 'POST', url: `/api/jobs/${job.id}/cancel` });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<Job>().cancelRequested).toBe(true);
    const done = await finished(job.id);
    expect(done).toMatchObject({ state: 'cancelled', message: 'Cancelled by an administrator' });
    const again = await t.call({ method: 'POST', url: `/api/jobs/${job.id}/cancel` });
    expect(again.statusCode).toBe(409);
    expect((await t.call({ method: 'POST', url: '/api/jobs/999999/cancel' })).statusCode).toBe(404);
    expect((await t.call({ method: 'GET', url: '/api/jobs/abc' })).statusCode).toBe(400);
    // Strict numbers: "0x10" is not job 16.
    const hex = await t.call({ method: 'GET', url: '/api/jobs/0x10' });
    expect(hex.statusCode).toBe(400);
    expect(hex.json().details[0]).toMatchObject({ field: 'id' });
  });

  it('a job left running by a process that died is marked interrupted at the next start', async () => {
    // What a killed process leaves behind: a running row whose heartbeat stopped.
    const db = t.deps.database.db;
    const old = Date.now() - 60_000;
    const row = await db
      .insertInto('jobs')
      .values({
        kind: 'test.dead',
        title: 'Left behind',
        state: 'running',
        owner: 'gone-host:1:dead',
        created_at: old,
        started_at: old,
        updated_at: old,
        heartbeat_at: old,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    // A process starting on this database sweeps at start (this app's queue leader sweeps too).
    const next = new JobRunner(db, t.deps.locks!);
    await next.start();
    await next.close();
    const j = await getJob(Number(row.id));
    expect(j.state).toBe('interrupted');
    expect(j.message).toBe('Interrupted: the server running it stopped');
  });

  it('a job still running when the server stops ends as interrupted', async () => {
    const other = await startTestApp(dialect, { jobs: FAST });
    const job = await other.deps.jobs!.run('test.forever', 'Forever', null, async (ctx) => {
      for (;;) {
        await new Promise((r) => setTimeout(r, 5));
        await ctx.checkpoint();
      }
    });
    const db = other.deps.database.db;
    await other.app.close();
    const row = await db.selectFrom('jobs').selectAll().where('id', '=', job.id).executeTakeFirstOrThrow();
    expect(row.state).toBe('interrupted');
    await other.close().catch(() => undefined);
  });

  it('a large alias import answers 202 and its job ends with the synchronous import’s counts', async () => {
    const domain = 'bigimport.example';
    expect(
      (
        await t.call({
          method: 'POST',
          url: '/api/mail/users/add',
          payload: { createDomain: true, email: `box@${domain}`, password: 'password-box' },
        })
      ).statusCode,
    ).toBe(200);
    const csv = bigAliasCsv(5000, domain);
    // The domain already answers its required addresses (system aliases): counted apart.
    const listed = async () =>
      Number(
        (await t.call({ method: 'GET', url: `/api/mail/aliases?q=${domain}&limit=1` })).headers[
          'x-total-count'
        ],
      );
    const before = await listed();
    // The synchronous path (a dry run of the service) on the same data, for the expected answer.
    const expected = await importAliases(t.deps.database.db, csv, true);
    expect(expected.imported).toBeGreaterThan(4900);
    expect(expected.errors.length).toBeGreaterThan(0);

    const res = await t.call({
      method: 'POST',
      url: '/api/mail/aliases/import',
      headers: { 'content-type': 'text/csv' },
      payload: csv,
    });
    expect(res.statusCode, res.body).toBe(202);
    const { jobId } = res.json<{ jobId: number }>();
    const job = await finished(jobId);
    expect(job.state, job.message ?? '').toBe('succeeded');
    expect(job.result).toEqual({
      imported: expected.imported,
      skipped: expected.skipped,
      errors: expected.errors,
      dryRun: false,
      newDomains: expected.newDomains,
    });
    expect(job.counts).toEqual({
      imported: expected.imported,
      skipped: expected.skipped,
      errors: expected.errors.length,
    });
    expect(await listed()).toBe(before + expected.imported);
    // Small files keep the immediate answer.
    const small = await t.call({
      method: 'POST',
      url: '/api/mail/aliases/import',
      headers: { 'content-type': 'text/csv' },
      payload: bigAliasCsv(50, 'small.example'),
    });
    expect(small.statusCode).toBe(200);
  });

  it('streams job progress and notifications over /api/events (bearer or session cookie)', async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    expect((await fetch(`${base}/api/events`)).status).toBe(401);

    const ac = new AbortController();
    const res = await fetch(`${base}/api/events`, {
      headers: { cookie: `mailroom_session=${encodeURIComponent(t.token)}` },
      signal: ac.signal,
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/event-stream');
    const events: { event: string; data: unknown }[] = [];
    const reading = (async () => {
      const decoder = new TextDecoder();
      let buf = '';
      try {
        for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
          buf += decoder.decode(chunk, { stream: true });
          let cut;
          while ((cut = buf.indexOf('\n\n')) !== -1) {
            const block = buf.slice(0, cut);
            buf = buf.slice(cut + 2);
            const event = /^event: (.*)$/m.exec(block)?.[1];
            const data = /^data: (.*)$/m.exec(block)?.[1];
            if (event && data) events.push({ event, data: JSON.parse(data) });
          }
        }
      } catch {
        /* aborted */
      }
    })();
    await until('ready', async () => (events.some((e) => e.event === 'ready') ? true : undefined));

    const domain = 'stream.example';
    await t.call({
      method: 'POST',
      url: '/api/mail/users/add',
      payload: { createDomain: true, email: `box@${domain}`, password: 'password-box' },
    });
    const post = await fetch(`${base}/api/mail/aliases/import`, {
      method: 'POST',
      headers: { authorization: `Bearer ${t.token}`, 'content-type': 'text/csv' },
      body: bigAliasCsv(20_000, domain),
    });
    expect(post.status).toBe(202);
    const { jobId } = (await post.json()) as { jobId: number };
    const jobEvents = () =>
      events.filter((e) => e.event === 'job' && (e.data as Job).id === jobId).map((e) => e.data as Job);
    await until('the job’s end on the stream', async () =>
      jobEvents().some((j) => j.state === 'succeeded') ? true : undefined,
    ).catch(async (err: unknown) => {
      throw new Error(
        `${String(err)}: ${JSON.stringify(jobEvents().slice(-3))} ${JSON.stringify(await getJob(jobId))}`,
      );
    });
    const seen = jobEvents();
    const running = seen.filter((j) => j.state === 'running' && j.processed > 0);
    expect(running.length).toBeGreaterThan(2);
    // Progress only moves forward within a phase.
    for (let i = 1; i < running.length; i++)
      if (running[i]!.phase === running[i - 1]!.phase)
        expect(running[i]!.processed).toBeGreaterThanOrEqual(running[i - 1]!.processed);
    expect(seen.at(-1)).toMatchObject({ state: 'succeeded', counts: { imported: expect.any(Number) } });
    await until('the notification', async () =>
      events.some((e) => e.event === 'notification' && (e.data as { jobId: number }).jobId === jobId)
        ? true
        : undefined,
    );
    ac.abort();
    await reading;
  });
  it('a process that did not run the job streams its progress (read from the jobs table)', async () => {
    // A second app on the same database, as another worker or machine would be.
    const d = t.deps.database;
    const handle =
      d.dialect === 'sqlite'
        ? openDatabase({ databaseUrl: `sqlite:${d.sqlitePath!}`, dataDir: t.dataDir })
        : openDatabase({ databaseUrl: d.postgresUrl!, dataDir: t.dataDir });
    const deps: AppDeps = { config: t.deps.config, database: handle, host: t.deps.host };
    const other = await buildApp(deps, { jobs: FAST });
    try {
      await other.listen({ port: 0, host: '127.0.0.1' });
      const base = `http://127.0.0.1:${(other.server.address() as AddressInfo).port}`;
      const ac = new AbortController();
      const res = await fetch(`${base}/api/events`, {
        headers: { authorization: `Bearer ${t.token}` },
        signal: ac.signal,
      });
      expect(res.status).toBe(200);
      const seen: Job[] = [];
      let ready = false;
      const reading = (async () => {
        const decoder = new TextDecoder();
        let buf = '';
        try {
          for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
            buf += decoder.decode(chunk, { stream: true });
            let cut;
            while ((cut = buf.indexOf('\n\n')) !== -1) {
              const block = buf.slice(0, cut);
              buf = buf.slice(cut + 2);
              const event = /^event: (.*)$/m.exec(block)?.[1];
              const data = /^data: (.*)$/m.exec(block)?.[1];
              if (event === 'ready') ready = true;
              if (event === 'job' && data) seen.push(JSON.parse(data) as Job);
            }
          }
        } catch {
          /* aborted */
        }
      })();
      await until('ready', async () => (ready ? true : undefined));
      // The job runs in the first app only.
      let release!: () => void;
      const gate = new Promise<void>((r) => (release = r));
      const job = await t.deps.jobs!.run('test.remote', 'Elsewhere', null, async (ctx) => {
        ctx.progress({ phase: 'Half way', processed: 50, total: 100 });
        await gate;
        ctx.progress({ processed: 100 });
        return { result: { ok: true } };
      });
      const mine = () => seen.filter((j) => j.id === job.id);
      await until('progress from the other process', async () =>
        mine().some((j) => j.processed === 50 && j.state === 'running') ? true : undefined,
      );
      release();
      await until('the end from the other process', async () =>
        mine().some((j) => j.state === 'succeeded') ? true : undefined,
      );
      expect(mine().at(-1)).toMatchObject({ state: 'succeeded', processed: 100, title: 'Elsewhere' });
      ac.abort();
      await reading;
    } finally {
      await other.close();
      await handle.close();
    }
  });
  it('an events stream ends when its session is signed out', async () => {
    const login = await t.app.inject({ method: 'POST', url: '/auth/login', payload: ADMIN });
    const key = login.json<{ api_key: string }>().api_key;
    if (!t.app.server.listening) await t.app.listen({ port: 0, host: '127.0.0.1' });
    const base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    const res = await fetch(`${base}/api/events`, { headers: { authorization: `Bearer ${key}` } });
    expect(res.status).toBe(200);
    const ended = (async () => {
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) void chunk;
      return true;
    })();
    const out = await t.app.inject({
      method: 'POST',
      url: '/auth/logout',
      headers: { authorization: `Bearer ${key}` },
    });
    expect(out.statusCode).toBe(200);
    // The heartbeat (50 ms here) finds the session gone and ends the stream.
    expect(await ended).toBe(true);
  });
});
