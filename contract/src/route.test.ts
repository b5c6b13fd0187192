import { describe, expect, it } from 'vitest';
import { buildPath } from './route.ts';

describe('buildPath', () => {
  it('fills and encodes every parameter', () => {
    expect(buildPath('mail/users/:email/quota', { email: 'a+b@c.co' })).toBe('mail/users/a%2Bb%40c.co/quota');
    expect(buildPath('dns/zones/:id/records/:rid', { id: 3, rid: 'x/y' })).toBe('dns/zones/3/records/x%2Fy');
  });
  it('throws on a missing parameter rather than sending ":name"', () => {
    expect(() => buildPath('dns/zones/:id', {})).toThrow('missing path parameter id');
  });
});
