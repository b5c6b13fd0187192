import { describe, expect, it } from 'vitest';
import { readingNote } from './updates-table.tsx';

describe('readingNote (the age of the server reading of apt)', () => {
  it('says how old the list is, and when it is being read again', () => {
    const now = Date.now();
    expect(readingNote({ readAt: new Date(now - 5 * 60_000).toISOString(), refreshing: false })).toBe(
      'List read 5m ago.',
    );
    expect(readingNote({ readAt: new Date(now).toISOString(), refreshing: true })).toBe(
      'List read just now; reading it again…',
    );
    expect(readingNote({ readAt: null, refreshing: true })).toBe('Reading the upgradable packages…');
  });
});
