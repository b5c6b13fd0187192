import { describe, expect, it } from 'vitest';
import { collectPages } from './collect-pages.ts';

function server(total: number) {
  const rows = Array.from({ length: total }, (_, i) => i);
  const calls: [number, number][] = [];
  const fetchPage = async (offset: number, limit: number) => {
    calls.push([offset, limit]);
    return { data: rows.slice(offset, offset + limit), total };
  };
  return { fetchPage, calls };
}

describe('collectPages', () => {
  it('reads every row across pages, in order', async () => {
    const s = server(2500);
    const all = await collectPages(s.fetchPage, 1000);
    expect(all).toHaveLength(2500);
    expect(all[0]).toBe(0);
    expect(all[2499]).toBe(2499);
    expect(s.calls).toEqual([
      [0, 1000],
      [1000, 1000],
      [2000, 1000],
    ]);
  });
  it('stops after one call on an empty list and on an exact multiple', async () => {
    const empty = server(0);
    expect(await collectPages(empty.fetchPage, 10)).toEqual([]);
    expect(empty.calls).toHaveLength(1);
    const exact = server(20);
    expect(await collectPages(exact.fetchPage, 10)).toHaveLength(20);
    expect(exact.calls).toHaveLength(2);
  });
  it('cannot loop when the total claims more rows than the server sends', async () => {
    let n = 0;
    const all = await collectPages(async (offset) => {
      n += 1;
      return { data: offset === 0 ? [1, 2] : [], total: 100 };
    }, 2);
    expect(all).toEqual([1, 2]);
    expect(n).toBe(2);
  });
  it('reports progress', async () => {
    const s = server(25);
    const seen: string[] = [];
    await collectPages(s.fetchPage, 10, (done, total) => seen.push(`${done}/${total}`));
    expect(seen).toEqual(['10/25', '20/25', '25/25']);
  });
});

describe('collectPages with a moving total', () => {
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
