import { describe, expect, it } from 'vitest';
import { formatBytes, formatCompactNumber, formatRelativeTime, formatUptime, percentOf } from './format.ts';

describe('formatBytes (base 1024, 2 decimals)', () => {
  it.each([
    [0, '0 B'],
    [512, '512 B'],
    [1023, '1023 B'],
    [1024, '1.00 KB'],
    [1536, '1.50 KB'],
    [1024 ** 2, '1.00 MB'],
    [1.5 * 1024 ** 3, '1.50 GB'],
    [8 * 1024 ** 3 - 1, '8.00 GB'],
    [2.25 * 1024 ** 4, '2.25 TB'],
  ])('%d → %s', (n, text) => {
    expect(formatBytes(n)).toBe(text);
  });

  it('uses 1024, not 1000', () => {
    expect(formatBytes(1000)).toBe('1000 B');
    expect(formatBytes(1_000_000)).toBe('976.56 KB');
  });

  it('handles odd input without throwing', () => {
    expect(formatBytes(Number.NaN)).toBe('—');
    expect(formatBytes(-2048)).toBe('-2.00 KB');
  });
});

describe('formatUptime', () => {
  it.each([
    [0, '0d 0h 0m'],
    [59, '0d 0h 0m'],
    [60, '0d 0h 1m'],
    [3 * 86400 + 4 * 3600 + 5 * 60 + 59, '3d 4h 5m'],
    [86399, '0d 23h 59m'],
    [400 * 86400, '400d 0h 0m'],
  ])('%d s → %s', (s, text) => {
    expect(formatUptime(s)).toBe(text);
  });

  it('treats negative or invalid values as zero', () => {
    expect(formatUptime(-5)).toBe('0d 0h 0m');
    expect(formatUptime(Number.NaN)).toBe('0d 0h 0m');
  });
});

describe('formatRelativeTime', () => {
  const now = new Date('2025-06-15T12:00:00Z');
  const ago = (ms: number) => new Date(now.getTime() - ms);

  it.each([
    [0, 'Just now'],
    [59_000, 'Just now'],
    [60_000, '1m ago'],
    [59 * 60_000, '59m ago'],
    [60 * 60_000, '1h ago'],
    [23 * 3_600_000 + 59 * 60_000, '23h ago'],
    [24 * 3_600_000, '1d ago'],
    [6 * 86_400_000 + 23 * 3_600_000, '6d ago'],
  ])('%d ms ago → %s', (ms, text) => {
    expect(formatRelativeTime(ago(ms), now)).toBe(text);
  });

  it('shows the date from 7 days on', () => {
    const d = ago(7 * 86_400_000);
    expect(formatRelativeTime(d, now)).toBe(d.toLocaleDateString());
  });

  it('accepts strings and numbers; a future time reads as just now', () => {
    expect(formatRelativeTime(ago(120_000).toISOString(), now)).toBe('2m ago');
    expect(formatRelativeTime(ago(120_000).getTime(), now)).toBe('2m ago');
    expect(formatRelativeTime(new Date(now.getTime() + 60_000), now)).toBe('Just now');
    expect(formatRelativeTime('not a date', now)).toBe('');
  });
});

describe('formatCompactNumber', () => {
  it.each([
    [0, '0'],
    [999, '999'],
    [1000, '1K'],
    [1500, '1.5K'],
    [12_345, '12.3K'],
    [999_949, '999.9K'],
    [999_999, '1M'],
    [2_000_000, '2M'],
    [2_450_000, '2.5M'],
    [-1500, '-1.5K'],
  ])('%d → %s', (n, text) => {
    expect(formatCompactNumber(n)).toBe(text);
  });
});

describe('percentOf', () => {
  it('rounds and guards against a zero total', () => {
    expect(percentOf(1, 3)).toBe(33);
    expect(percentOf(2, 3)).toBe(67);
    expect(percentOf(5, 0)).toBe(0);
  });
});
