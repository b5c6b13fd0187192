import { describe, expect, it } from 'vitest';
import { BatchedCounter, SHARED_SYNC_MS, type SharedCount } from './rate-limit-store.ts';

/** A shared counter in memory standing for the database table, counting its writes. */
function sharedTable() {
  const rows = new Map<string, SharedCount>();
  const calls: { key: string; delta: number }[] = [];
  return {
    calls,
    rows,
    add: async (key: string, delta: number, windowMs: number, now: number): Promise<SharedCount> => {
      calls.push({ key, delta });
      const r = rows.get(key);
      const next =
        !r || r.windowStart + windowMs <= now
          ? { hits: delta, windowStart: now }
          : { ...r, hits: r.hits + delta };
      rows.set(key, next);
      return next;
    },
  };
}

const incr = (c: BatchedCounter, key: string, max: number, windowMs = 60_000) =>
  new Promise<number>((resolve, reject) =>
    c.incr(key, (err, r) => (err ? reject(err) : resolve(r!.current)), windowMs, max),
  );

describe('BatchedCounter (the shared rate-limit store)', () => {
  it('writes about once per key per sync period far below the limit, and loses no hit', async () => {
    let now = 1_000_000;
    const t = sharedTable();
    const c = new BatchedCounter(t.add, () => now);
    for (let i = 0; i < 1000; i++) {
      await incr(c, 'ip:a', 1_000_000);
      now += 1; // 1000 requests over 1 s
    }
    expect(t.calls.length).toBeLessThanOrEqual(Math.ceil(1000 / SHARED_SYNC_MS) + 1);
    // The next read adds what was counted meanwhile: nothing is lost.
    now += SHARED_SYNC_MS;
    expect(await incr(c, 'ip:a', 1_000_000)).toBe(1001);
    expect(t.rows.get('ip:a')?.hits).toBe(1001);
  });

  it('judges by the exact shared total near the limit, across instances', async () => {
    const now = 5_000;
    const t = sharedTable();
    const a = new BatchedCounter(t.add, () => now);
    const b = new BatchedCounter(t.add, () => now);
    const seen: number[] = [];
    for (let i = 0; i < 8; i++) seen.push(await incr(i % 2 ? b : a, 'session:1', 5));
    // Above half the limit every request adds its hits to the shared counter first: from there on
    // each hit is judged by the exact total (the 6th hit, the first over 5, sees 6).
    expect(seen.slice(4)).toEqual([5, 6, 7, 8]);
    expect(t.rows.get('session:1')?.hits).toBe(8);
  });

  it('starts a new window when the old one ended', async () => {
    let now = 0;
    const t = sharedTable();
    const c = new BatchedCounter(t.add, () => now);
    for (let i = 0; i < 4; i++) await incr(c, 'k', 4, 1000);
    now = 1500;
    expect(await incr(c, 'k', 4, 1000)).toBe(1);
  });
});
