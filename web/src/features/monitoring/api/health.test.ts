import { describe, expect, it } from 'vitest';
import { cacheLevel, errorRateLevel, formatMs, formatPercent, responseTimeLevel } from './health.ts';

describe('API monitoring colour rules', () => {
  it('error rate per spec §9: up to 1 % success, up to 5 % warning, above error', () => {
    expect([0, 1, 1.01, 5, 5.01, null].map(errorRateLevel)).toEqual([
      'success',
      'success',
      'warning',
      'warning',
      'error',
      'none',
    ]);
  });
  it('response time and cache performance', () => {
    expect([12, 300, 301, 1000, 1001, null].map(responseTimeLevel)).toEqual([
      'success',
      'success',
      'warning',
      'warning',
      'error',
      'none',
    ]);
    expect([80, 50, 49.9, 20, 19, null].map(cacheLevel)).toEqual([
      'success',
      'success',
      'warning',
      'warning',
      'error',
      'none',
    ]);
  });
  it('formats', () => {
    expect(formatPercent(null)).toBe('—');
    expect(formatPercent(7)).toBe('7.0 %');
    expect(formatMs(null)).toBe('—');
    expect(formatMs(3.456)).toBe('3.46 ms');
    expect(formatMs(1500)).toBe('1.50 s');
  });
});
