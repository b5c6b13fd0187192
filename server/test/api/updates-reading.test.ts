import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Job } from '@mailroom/contract/jobs';
import { UpdatesAnswer } from '@mailroom/contract/system-admin';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.ts';
import { dialects, startTestApp, type TestContext } from '../harness.ts';

/**
 * Issue 22 #18: /system/management's updates tab waited for apt (5-6 s cold) in every worker. The
 * reading is now kept in the database: a worker answers at once (with the reading's age) even when
 * apt is slow, one process reads apt again in the background, and an update job that ends makes
 * every worker's next answer say it is being read again. apt is made slow by a wrapper in front of
 * it on PATH (4 s before the real apt runs); it reads only an empty local source list
 * (MAILROOM_APT_OPTIONS), never the network.
 */
const FAST = { heartbeatMs: 50, persistMs: 20, pollMs: 50, staleMs: 5000 };
const SLOW_S = 4;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe.each(dialects())('the updates reading on %s', (dialect) => {
  let t: TestContext;
  let second: FastifyInstance | null = null;
  let tmp = '';
  const oldPath = process.env.PATH;
  /** The `apt … list --upgradable` runs so far (each logged by the slow wrapper). */
  const aptLists = () =>
    readFileSync(path.join(tmp, 'calls'), 'utf8')
      .split('\n')
      .filter((c) => c.startsWith('apt ') && c.includes(' list --upgradable'));

  beforeAll(async () => {
    tmp = mkdtempSync(path.join(os.tmpdir(), 'mailroom-slow-apt-'));
    const bin = path.join(tmp, 'bin');
    mkdirSync(bin);
    writeFileSync(path.join(tmp, 'calls'), '');
    for (const prog of ['apt', 'apt-cache']) {
      writeFileSync(
        path.join(bin, prog),
        `#!/bin/sh\necho "${prog} $*" >> ${tmp}/calls\nsleep ${SLOW_S}\nexec /usr/bin/${prog} "$@"\n`,
      );
      chmodSync(path.join(bin, prog), 0o755);
    }
    writeFileSync(path.join(tmp, 'sources.list'), '');
    for (const d of ['sources.d', 'lists/partial', 'cache/archives/partial'])
      mkdirSync(path.join(tmp, d), { recursive: true });
    process.env.MAILROOM_APT_OPTIONS = [
      `-o Dir::Etc::sourcelist=${tmp}/sources.list`,
      `-o Dir::Etc::sourceparts=${tmp}/sources.d`,
      `-o Dir::State::Lists=${tmp}/lists`,
      `-o Dir::Cache=${tmp}/cache`,
    ].join(' ');
    process.env.PATH = `${bin}:${oldPath}`;
    t = await startTestApp(dialect, { jobs: FAST, warmUpdates: true });
  }, 60_000);
  afterAll(async () => {
    await second?.close();
    await t?.close();
    process.env.PATH = oldPath;
    delete process.env.MAILROOM_APT_OPTIONS;
    rmSync(tmp, { recursive: true, force: true });
  });

  /** One read of the updates, and how long it took. */
  const timed = async (app: FastifyInstance) => {
    const started = performance.now();
    const res = await app.inject({ url: '/api/updates', headers: { authorization: `Bearer ${t.token}` } });
    const ms = performance.now() - started;
    expect(res.statusCode, res.body).toBe(200);
    return { ms, answer: UpdatesAnswer.parse(res.json()) };
  };
  const settled = async (app: FastifyInstance) => {
    for (let i = 0; i < 600; i++) {
      const { answer } = await timed(app);
      if (!answer.refreshing) return answer;
      await sleep(100);
    }
    throw new Error('the reading was never refreshed');
  };

  it('a cold worker answers at once while apt is slow; the reading is shared; a job ending invalidates it', async () => {
    // Just started, nothing read yet, apt busy for seconds: answered at once, saying so.
    const first = await timed(t.app);
    expect(first.ms).toBeLessThan(1000);
    expect(first.answer).toMatchObject({ refreshing: true, readAt: null, updates: [] });

    // The background reading (warmed at start) lands: the list with its age.
    const read = await settled(t.app);
    expect(read.readAt).not.toBeNull();
    expect(aptLists()).toHaveLength(1);

    // A cold worker (another server process on the same database): at once, the same reading,
    // and no apt of its own.
    second = await buildApp(t.deps, { jobs: FAST, warmUpdates: true });
    const cold = await timed(second);
    expect(cold.ms).toBeLessThan(1000);
    expect(cold.answer).toMatchObject({ refreshing: false, readAt: read.readAt });
    await sleep(300);
    expect(aptLists()).toHaveLength(1);

    // A check ends (in the first process): the other's next answer says it is being read again,
    // still at once; then the new reading is there for both.
    const res = await t.call({ method: 'POST', url: '/api/updates/check' });
    expect(res.statusCode, res.body).toBe(202);
    const id = res.json<{ jobId: number }>().jobId;
    let job: Job | null = null;
    for (let i = 0; i < 1200 && !job; i++) {
      const j = (await t.call({ url: `/api/jobs/${id}` })).json<Job>();
      if (!['queued', 'running'].includes(j.state)) job = j;
      else await sleep(50);
    }
    expect(job?.state, job?.message ?? '').toBe('succeeded');
    const after = await timed(second);
    expect(after.ms).toBeLessThan(1000);
    expect(after.answer).toMatchObject({ refreshing: true, readAt: read.readAt });
    const again = await settled(second);
    expect(Date.parse(again.readAt!)).toBeGreaterThan(Date.parse(read.readAt!));
    expect((await settled(t.app)).readAt).toBe(again.readAt);
    // One apt reading per change, whatever the number of workers that asked (the check job counts
    // the upgradable packages itself: the third).
    expect(aptLists()).toHaveLength(3);
  }, 120_000);
});
