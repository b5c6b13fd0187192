import os from 'node:os';
import { Host } from '../../../server/src/host/host.ts';
import { HashPool } from '../../../server/src/lib/hash-pool.ts';
import { createMailbox } from '../../../server/src/features/mail/mailboxes/mailbox.service.ts';
import type { BenchContext, BenchRow } from '../suite.ts';
import { openBenchDb } from './bench-db.ts';

const COUNT = 1000;
const CONCURRENCY = 16;
const GOAL = 1.8;

async function createAll(poolSize: number): Promise<number> {
  const db = await openBenchDb('sqlite');
  const pool = new HashPool(poolSize);
  try {
    const ctx = {
      db: db.handle.db,
      database: db.handle,
      host: new Host(db.dataDir + '/root', false),
      hasher: pool,
    };
    let next = 0;
    const start = performance.now();
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        for (let i = next++; i < COUNT; i = next++) {
          await createMailbox(ctx, {
            email: `user${i}@create.bench.test`,
            password: `password-${i}`,
            quota: 0,
          });
        }
      }),
    );
    return COUNT / ((performance.now() - start) / 1000);
  } finally {
    await pool.close();
    await db.close();
  }
}

/** argon2id hashes alone on a pool of `size`: hashes/s and the cores the process kept busy. */
async function hashOnly(size: number): Promise<{ perSecond: number; coresBusy: number }> {
  const pool = new HashPool(size);
  try {
    const start = performance.now();
    const cpu0 = process.cpuUsage();
    let next = 0;
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        for (let i = next++; i < COUNT; i = next++) await pool.hash(`password-${i}`);
      }),
    );
    const wall = performance.now() - start;
    const cpu = process.cpuUsage(cpu0);
    return { perSecond: COUNT / (wall / 1000), coresBusy: (cpu.user + cpu.system) / 1000 / wall };
  } finally {
    await pool.close();
  }
}

/** 1,000 mailboxes through the service (argon2id per password): worker pool vs one worker. */
export async function createBench(ctx: BenchContext): Promise<BenchRow[]> {
  const cores = os.availableParallelism();
  ctx.log(`creating ${COUNT} mailboxes with a 1-worker pool`);
  const one = await createAll(1);
  ctx.log(`creating ${COUNT} mailboxes with a ${cores}-worker pool`);
  const many = await createAll(cores);
  const ratio = many / one;
  ctx.log(`hashing ${COUNT} passwords alone, 1 worker then ${cores}`);
  const h1 = await hashOnly(1);
  const hn = await hashOnly(cores);
  return [
    {
      measure: `create ${COUNT} mailboxes, 1 hashing worker`,
      value: `${one.toFixed(1)} mailboxes/s`,
      raw: { perSecond: one },
    },
    {
      measure: `create ${COUNT} mailboxes, ${cores} hashing workers`,
      value: `${many.toFixed(1)} mailboxes/s`,
      raw: { perSecond: many },
    },
    {
      measure: '  speed-up over one core',
      value: `${ratio.toFixed(2)}×`,
      goal: `≥ ${GOAL}×`,
      pass: ratio >= GOAL,
      raw: { ratio, cores },
    },
    {
      measure: `  argon2id alone: ${cores} workers vs 1`,
      value: `${(hn.perSecond / h1.perSecond).toFixed(2)}× (${h1.perSecond.toFixed(0)} → ${hn.perSecond.toFixed(0)} hashes/s, ${hn.coresBusy.toFixed(2)} cores busy)`,
      raw: { one: h1.perSecond, many: hn.perSecond, coresBusy: hn.coresBusy },
    },
  ];
}
