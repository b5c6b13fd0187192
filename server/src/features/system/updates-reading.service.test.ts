import { describe, expect, it } from 'vitest';
import { SharedReading } from './updates-reading.service.ts';

/** A reader whose readings the test finishes by hand, and a clock the test moves. */
function setup() {
  let clock = 0;
  const pending: { resolve: (v: number) => void; reject: (e: Error) => void }[] = [];
  let reads = 0;
  const reading = new SharedReading<number>(
    () => {
      reads++;
      return new Promise<number>((resolve, reject) => pending.push({ resolve, reject }));
    },
    60_000,
    () => clock,
  );
  return {
    reading,
    reads: () => reads,
    finish: (i: number, v: number) => pending[i]!.resolve(v),
    fail: (i: number) => pending[i]!.reject(new Error('apt failed')),
    tick: (ms: number) => (clock += ms),
  };
}

const settled = () => new Promise((r) => setTimeout(r, 0));

describe('SharedReading (the updates list apt reads)', () => {
  it('viewers share the first reading', async () => {
    const t = setup();
    const a = t.reading.get();
    const b = t.reading.get();
    t.finish(0, 1);
    expect(await a).toBe(1);
    expect(await b).toBe(1);
    expect(t.reads()).toBe(1);
  });

  it('an old reading answers at once while a fresh one runs, which then replaces it', async () => {
    const t = setup();
    const first = t.reading.get();
    t.finish(0, 1);
    await first;
    t.tick(61_000);
    // Answered without waiting for apt: the refresh is still pending.
    expect(await t.reading.get()).toBe(1);
    expect(await t.reading.get()).toBe(1);
    expect(t.reads()).toBe(2);
    t.finish(1, 2);
    await settled();
    expect(await t.reading.get()).toBe(2);
    expect(t.reads()).toBe(2);
  });

  it('a young reading starts no new one', async () => {
    const t = setup();
    const first = t.reading.get();
    t.finish(0, 1);
    await first;
    t.tick(59_000);
    expect(await t.reading.get()).toBe(1);
    expect(t.reads()).toBe(1);
  });

  it('after invalidate the next viewer waits for a new reading, not one begun before', async () => {
    const t = setup();
    const first = t.reading.get();
    t.finish(0, 1);
    await first;
    t.tick(61_000);
    await t.reading.get(); // starts refresh #1 (begun before the install)
    t.reading.invalidate();
    const after = t.reading.get(); // must start refresh #2
    expect(t.reads()).toBe(3);
    t.finish(1, 2);
    t.finish(2, 3);
    expect(await after).toBe(3);
    await settled();
    expect(await t.reading.get()).toBe(3);
  });

  it('a failed first reading is not kept: the next viewer tries again', async () => {
    const t = setup();
    const first = t.reading.get();
    t.fail(0);
    await expect(first).rejects.toThrow('apt failed');
    await settled();
    const second = t.reading.get();
    t.finish(1, 5);
    expect(await second).toBe(5);
  });

  it('a changed version (an update job ended in another process) drops the reading', async () => {
    let version = 1;
    let reads = 0;
    const reading = new SharedReading<number>(
      () => Promise.resolve(++reads),
      60_000,
      () => 0,
      () => Promise.resolve(version),
    );
    expect(await reading.get()).toBe(1);
    expect(await reading.get()).toBe(1);
    version = 2;
    expect(await reading.get()).toBe(2);
    expect(await reading.get()).toBe(2);
    expect(reads).toBe(2);
  });
});
