import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.ts';
import type { AppDeps } from '../../src/app-deps.ts';
import { type DatabaseHandle, openDatabase } from '../../src/db/database.ts';
import { createLocks, type Locks, targetLock } from '../../src/db/locks.ts';
import { dialects, startTestApp, type TestContext } from '../harness.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A second, independent connection to the test app's database (as another process has). */
function secondHandle(t: TestContext): DatabaseHandle {
  const d = t.deps.database;
  return d.dialect === 'sqlite'
    ? openDatabase({ databaseUrl: `sqlite:${d.sqlitePath!}`, dataDir: t.dataDir })
    : openDatabase({ databaseUrl: d.postgresUrl!, dataDir: t.dataDir });
}

describe.each(dialects())('database locks on %s', (dialect) => {
  let t: TestContext;
  let other: DatabaseHandle;
  let a: Locks;
  let b: Locks;
  beforeAll(async () => {
    t = await startTestApp(dialect);
    other = secondHandle(t);
    a = createLocks(t.deps.database, { ttlMs: 600 });
    b = createLocks(other, { ttlMs: 600 });
  });
  afterAll(async () => {
    await a.close();
    await b.close();
    await other.close();
    await t.close();
  });

  it('withLock: holders of one name on two connections never overlap; other names run side by side', async () => {
    let active = 0;
    let most = 0;
    let ran = 0;
    const work = async () => {
      active++;
      most = Math.max(most, active);
      await sleep(3);
      active--;
      ran++;
    };
    await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 ? a : b).withLock('apply:dns', work)));
    expect(ran).toBe(20);
    expect(most).toBe(1);

    let both = 0;
    let together = false;
    // Each holder waits (up to 5 s) for the other to be inside too: serialised locks never meet.
    const pair = async () => {
      both++;
      const until = Date.now() + 5000;
      while (both < 2 && Date.now() < until) await sleep(5);
      together ||= both === 2;
      await sleep(5);
      both--;
    };
    await Promise.all([a.withLock('apply:mail', pair), b.withLock('apply:web', pair)]);
    expect(together).toBe(true);
  });

  it('targetLock (the apply pipeline): one target at a time across instances', async () => {
    const onA = targetLock(a);
    const onB = targetLock(b);
    const order: string[] = [];
    const step = (who: string) => async () => {
      order.push(`${who} in`);
      await sleep(30);
      order.push(`${who} out`);
    };
    await Promise.all([onA('mail', step('a')), onB('mail', step('b'))]);
    expect(order[1]).toBe(`${order[0]!.split(' ')[0]} out`);
    expect(order[3]).toBe(`${order[2]!.split(' ')[0]} out`);
  });

  it('withLock outlives its expiry while the holder is alive (renewal), and the error releases it', async () => {
    let second = 0;
    const held = a.withLock('slow', async (signal) => {
      await sleep(1500); // well past the 600 ms lease: renewals keep it
      expect(signal.aborted).toBe(false);
      expect(second).toBe(0);
    });
    await sleep(50);
    const waiting = b.withLock('slow', async () => {
      second = Date.now();
    });
    await held;
    await waiting;
    expect(second).toBeGreaterThan(0);
    await expect(
      a.withLock('boom', async () => {
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect(await b.withLock('boom', async () => 'free again', { waitMs: 500 })).toBe('free again');
  });

  it('tryLeader: one leader among two instances; the other takes over when it lets go', async () => {
    const first = await a.tryLeader('supervisor');
    expect(first).not.toBeNull();
    expect(await b.tryLeader('supervisor')).toBeNull();
    await sleep(900); // past the lease: renewed, still held
    expect(first!.signal.aborted).toBe(false);
    expect(await b.tryLeader('supervisor')).toBeNull();
    await first!.release();
    expect(first!.signal.aborted).toBe(true);
    const second = await b.tryLeader('supervisor');
    expect(second).not.toBeNull();
    await second!.release();
  });

  it('two app instances on one database run each queued job exactly once', async () => {
    const FAST = { heartbeatMs: 50, persistMs: 20, pollMs: 20, staleMs: 2000 };
    const apps: FastifyInstance[] = [];
    const runs = new Map<number, string[]>();
    const handles = [secondHandle(t), secondHandle(t)];
    const runners = [];
    for (const [i, database] of handles.entries()) {
      const deps: AppDeps = { config: t.deps.config, database, host: t.deps.host };
      apps.push(await buildApp(deps, { jobs: FAST }));
      const name = `app${i}`;
      deps.jobs!.register('test.once', async (input, ctx) => {
        const { n } = input as { n: number };
        runs.set(n, [...(runs.get(n) ?? []), name]);
        await sleep(10);
        await ctx.checkpoint();
        return { result: { n, by: name } };
      });
      runners.push(deps.jobs!);
    }
    const ids = [];
    for (let n = 0; n < 8; n++)
      ids.push((await runners[n % 2]!.enqueue('test.once', `Once ${n}`, null, { n })).id);
    const db = t.deps.database.db;
    const deadline = Date.now() + 20_000;
    for (;;) {
      const done = await db.selectFrom('jobs').select('state').where('id', 'in', ids).execute();
      if (done.every((r) => r.state === 'succeeded')) break;
      if (Date.now() > deadline) throw new Error(`jobs did not finish: ${JSON.stringify(done)}`);
      await sleep(20);
    }
    expect([...runs.keys()].sort()).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    for (const [, by] of runs) expect(by).toHaveLength(1);
    for (const app of apps) await app.close();
    for (const h of handles) await h.close();
  });
});
