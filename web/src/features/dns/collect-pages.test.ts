import { describe, expect, it } from 'vitest';
import { collectPages } from './collect-pages.ts';

describe('collectPages', () => {
  it('reads every page up to the total', async () => {
    const all = Array.from({ length: 7 }, (_, i) => i);
    const calls: number[] = [];
    const rows = await collectPages(async (offset, limit) => {
      calls.push(offset);
      return { data: all.slice(offset, offset + limit), total: all.length };
    }, 3);
    expect(rows).toEqual(all);
    expect(calls).toEqual([0, 3, 6]);
  });

  it('stops on a short page even when the total grew meanwhile', async () => {
    let n = 0;
    const rows = await collectPages(async (offset) => {
      n += 1;
      return { data: offset === 0 ? [1, 2] : [3], total: 100 };
    }, 2);
    expect(rows).toEqual([1, 2, 3]);
    expect(n).toBe(2);
  });
});
