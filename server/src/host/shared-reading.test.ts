import { describe, expect, it } from 'vitest';
import { SharedReading } from './shared-reading.ts';

describe('SharedReading: one look at the machine a second, whatever the number of requests', () => {
  it('reads at most once per second, shares the reading in flight, reads again after a second', async () => {
    let now = 10_000;
    let reads = 0;
    let release: (() => void) | null = null;
    const r = new SharedReading(
      () => {
        reads++;
        const n = reads;
        return new Promise<number>((resolve) => (release = () => resolve(n)));
      },
      { now: () => now },
    );
    // 100 requests at once while the first reading runs: one reading.
    const first = Array.from({ length: 100 }, () => r.get());
    release!();
    expect(await Promise.all(first)).toEqual(Array(100).fill(1));
    expect(reads).toBe(1);
    // Within the second: the same answer, no new reading.
    now += 999;
    expect(await r.get()).toBe(1);
    expect(reads).toBe(1);
    // A second later: one new reading for the next 50 callers.
    now += 1;
    const second = Array.from({ length: 50 }, () => r.get());
    release!();
    expect(await Promise.all(second)).toEqual(Array(50).fill(2));
    expect(reads).toBe(2);
  });

  it('does not keep a failed reading, and invalidate() forces a fresh one (after an action)', async () => {
    const now = 0;
    let reads = 0;
    const r = new SharedReading(
      async () => {
        reads++;
        if (reads === 1) throw new Error('proc unreadable');
        return reads;
      },
      { now: () => now },
    );
    await expect(r.get()).rejects.toThrow('proc unreadable');
    expect(await r.get()).toBe(2);
    expect(await r.get()).toBe(2);
    r.invalidate();
    expect(await r.get()).toBe(3);
    expect(reads).toBe(3);
  });
});
