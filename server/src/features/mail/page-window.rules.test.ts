import { describe, expect, it } from 'vitest';
import { pageWindow } from './page-window.rules.ts';

describe('pageWindow', () => {
  it('reads pages of the first half forwards', () => {
    expect(pageWindow(1000, 0, 100)).toEqual({ reverse: false, offset: 0, limit: 100 });
    expect(pageWindow(1000, 400, 100)).toEqual({ reverse: false, offset: 400, limit: 100 });
  });

  it('reads pages of the second half from the end, same rows', () => {
    // Rows 900..999 are the first 100 read backwards.
    expect(pageWindow(1000, 900, 100)).toEqual({ reverse: true, offset: 0, limit: 100 });
    expect(pageWindow(1000, 600, 100)).toEqual({ reverse: true, offset: 300, limit: 100 });
    // A short last page: rows 950..999.
    expect(pageWindow(1000, 950, 100)).toEqual({ reverse: true, offset: 0, limit: 50 });
  });

  it('leaves pages past the end alone (they are empty either way)', () => {
    expect(pageWindow(1000, 1000, 100)).toEqual({ reverse: false, offset: 1000, limit: 100 });
    expect(pageWindow(0, 0, 100)).toEqual({ reverse: false, offset: 0, limit: 100 });
  });
});
