import { describe, expect, it } from 'vitest';
import { pagePosition, pageQuery } from './cursor-pages.ts';

describe('pagePosition', () => {
  it('follows the cursors one page forward or back', () => {
    expect(pagePosition({ page: 4, next: 'n', prev: 'p' }, 5)).toEqual({ page: 5, cursor: 'n' });
    expect(pagePosition({ page: 4, next: 'n', prev: 'p' }, 3)).toEqual({ page: 3, cursor: 'p' });
  });

  it('reads jumps, the first page and pages without a cursor by offset', () => {
    expect(pagePosition({ page: 4, next: 'n', prev: 'p' }, 9)).toEqual({ page: 9 });
    expect(pagePosition({ page: 2, next: 'n', prev: 'p' }, 1)).toEqual({ page: 1 });
    expect(pagePosition({ page: 4 }, 5)).toEqual({ page: 5 });
  });
});

describe('pageQuery', () => {
  it('sends a cursor or an offset, never both', () => {
    expect(pageQuery({ page: 5, cursor: 'c' }, 50)).toEqual({ limit: 50, cursor: 'c' });
    expect(pageQuery({ page: 5 }, 50)).toEqual({ limit: 50, offset: 200 });
  });
});
