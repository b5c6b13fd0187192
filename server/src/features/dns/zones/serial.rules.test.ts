import { describe, expect, it } from 'vitest';
import { dateSerialBase, nextSerial } from './serial.rules.ts';

const day = new Date('2025-03-07T12:00:00Z');

describe('SOA serial', () => {
  it('moves to today YYYYMMDD00 from an older or small serial', () => {
    expect(dateSerialBase(day)).toBe(2025030700);
    expect(nextSerial(1, day)).toBe(2025030700);
    expect(nextSerial(2024123199, day)).toBe(2025030700);
  });

  it('counts up within the day and never goes back', () => {
    expect(nextSerial(2025030700, day)).toBe(2025030701);
    expect(nextSerial(2025030799, day)).toBe(2025030800);
    expect(nextSerial(2030010100, day)).toBe(2030010101);
  });

  it('honours a higher serial asked for, and stops at the 32-bit limit', () => {
    expect(nextSerial(2025030700, day, 2025030750)).toBe(2025030750);
    expect(nextSerial(4294967295, day)).toBe(4294967295);
  });
});
