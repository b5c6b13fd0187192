import { describe, expect, it } from 'vitest';
import { folderName, maildirOf, prefixRange, splitAddress } from './mail-address.rules.ts';

describe('mail addresses', () => {
  it('makes safe folder names from any local part', () => {
    expect(folderName('john.doe+tag')).toBe('john.doe+tag');
    expect(folderName('..')).toBe('%2E.');
    expect(folderName('a/b')).toBe('a%2Fb');
    expect(folderName('.hidden')).toBe('%2Ehidden');
    expect(folderName('zoë')).toBe('zo%C3%AB');
    expect(maildirOf('../../etc@example.com')).toBe('example.com/%2E.%2F..%2Fetc/');
  });

  it('splits on the last @ and builds a prefix range', () => {
    expect(splitAddress('"a@b"@example.com')).toEqual({ local: '"a@b"', domain: 'example.com' });
    const [lo, hi] = prefixRange('  Alice ');
    expect(lo).toBe('alice');
    expect('alice@example.com' >= lo && 'alice@example.com' < hi).toBe(true);
    expect('alicf' < hi).toBe(false);
  });
});
