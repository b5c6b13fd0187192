import { RELEASE_RETENTION } from '@mailroom/contract/web/applications';
import { describe, expect, it } from 'vitest';
import { releasesToPrune } from './app.layout.ts';

describe('release retention', () => {
  const rel = (id: number, p: string | null = `/r/${id}`) => ({ id, path: p });

  it(`keeps ${RELEASE_RETENTION} folders, newest first, the live one always`, () => {
    const all = [8, 7, 6, 5, 4, 3, 2, 1].map((i) => rel(i));
    expect(releasesToPrune(all, 8).map((r) => r.id)).toEqual([3, 2, 1]);
    // After a rollback to release 2 the live folder is kept even though it is old.
    expect(releasesToPrune(all, 2).map((r) => r.id)).toEqual([4, 3, 1]);
  });

  it('a rollback release shares its source folder: the folder counts once; pruned ones are skipped', () => {
    const all = [rel(9, '/r/1'), rel(8), rel(7, null), rel(6), rel(5), rel(4), rel(3), rel(1, '/r/1')];
    expect(releasesToPrune(all, 9).map((r) => r.id)).toEqual([3]);
  });
});
