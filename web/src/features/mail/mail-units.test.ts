import { MB } from '@mailroom/contract/mail';
import { describe, expect, it } from 'vitest';
import { bytesToQuotaField, quotaFieldToBytes, usageColor, usagePercent } from './mail-units.ts';

describe('quota field ↔ bytes', () => {
  it('treats an empty field as unlimited (0 bytes)', () => {
    expect(quotaFieldToBytes('')).toBe(0);
    expect(quotaFieldToBytes(0)).toBe(0);
  });
  it('converts MB with 1 MB = 1024² bytes', () => {
    expect(quotaFieldToBytes(1)).toBe(1_048_576);
    expect(quotaFieldToBytes(1000)).toBe(1000 * MB);
    expect(quotaFieldToBytes('2048')).toBe(2048 * MB);
    expect(quotaFieldToBytes(0.5)).toBe(524_288);
  });
  it('shows unlimited as an empty field and bytes as MB', () => {
    expect(bytesToQuotaField(0)).toBe('');
    expect(bytesToQuotaField(1000 * MB)).toBe(1000);
    expect(bytesToQuotaField(1_500_000)).toBe(1.43);
  });
  it('round-trips whole MB values', () => {
    for (const mb of [1, 25, 1000, 10000, 1024 * 1024])
      expect(bytesToQuotaField(quotaFieldToBytes(mb))).toBe(mb);
  });
});

describe('usage', () => {
  it('is used ÷ quota rounded, null when unlimited', () => {
    expect(usagePercent(0, 100)).toBe(0);
    expect(usagePercent(50, 200)).toBe(25);
    expect(usagePercent(1, 3)).toBe(33);
    expect(usagePercent(2, 3)).toBe(67);
    expect(usagePercent(500, 0)).toBeNull();
  });
  it('turns red above 80 %, not at 80 %', () => {
    expect(usageColor(80)).toBe('blue');
    expect(usageColor(81)).toBe('red');
    expect(usageColor(0)).toBe('blue');
    expect(usageColor(150)).toBe('red');
  });
});
