import { describe, expect, it } from 'vitest';
import { fieldMessages } from './messages.ts';
import {
  DOMAIN_RE,
  domainField,
  isEmailAddress,
  queryInt,
  requiredInt,
  strictNumberInput,
} from './validators.ts';

describe('isEmailAddress', () => {
  it.each(['a@b.co', 'first.last+tag@sub.example.org'])('takes %s', (v) => {
    expect(isEmailAddress(v)).toBe(true);
  });
  it.each(['', '@b.co', 'a@b', 'a@.co', 'a@b.', 'a b@c.co', 'a@b@c.co', 'a\u200b@b.co', 'a@b.co\n'])(
    'refuses %j',
    (v) => {
      expect(isEmailAddress(v)).toBe(false);
    },
  );
  it('refuses an address over the RFC 5321 limit', () => {
    expect(isEmailAddress(`${'a'.repeat(250)}@b.co`)).toBe(false);
  });
});

describe('domains', () => {
  it('takes multi-label names and refuses a bare name or a dash at a label edge', () => {
    expect(DOMAIN_RE.test('mail.example.co.uk')).toBe(true);
    expect(DOMAIN_RE.test('localhost')).toBe(false);
    expect(DOMAIN_RE.test('-a.example.com')).toBe(false);
    expect(DOMAIN_RE.test(`${'a'.repeat(64)}.com`)).toBe(false);
  });
  it('names the spec message and trims', () => {
    expect(domainField('Domain').parse('  example.com ')).toBe('example.com');
    const r = domainField('Domain').safeParse('example');
    expect(r.success).toBe(false);
    expect(r.error?.issues[0]?.message).toBe(fieldMessages.domain);
  });
});

describe('strict numbers', () => {
  it('turns only plain decimals into numbers', () => {
    expect(strictNumberInput(' 42 ')).toBe(42);
    expect(strictNumberInput('-1.5')).toBe(-1.5);
    for (const v of ['', '0x10', '1e3', 'Infinity', '1,5']) expect(strictNumberInput(v)).toBe(v);
    expect(strictNumberInput(null)).toBe(null);
  });
  it('queryInt refuses what z.coerce would have taken', () => {
    const limit = queryInt(1, 100, 'Limit');
    expect(limit.parse('10')).toBe(10);
    for (const v of ['', '0x10', '1e3', true, [], '0', '101', '2.5'])
      expect(limit.safeParse(v).success).toBe(false);
  });
  it('requiredInt says the blank message when given one', () => {
    const r = requiredInt('Quota', 1, undefined, 'Quota must be at least 1').safeParse('');
    expect(r.error?.issues[0]?.message).toBe('Quota must be at least 1');
    const plain = requiredInt('Quota', 1).safeParse('');
    expect(plain.error?.issues[0]?.message).toBe(fieldMessages.required('Quota'));
  });
});
