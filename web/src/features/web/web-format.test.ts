import { describe, expect, it } from 'vitest';
import { errorRateTone } from '@mailroom/contract/web';
import {
  formatErrorRate,
  formatWebNumber,
  formatWebUptime,
  statusTone,
  vhostStatusTone,
} from './web-format.ts';

describe('web number formats (spec 3 §9)', () => {
  it('shows counts under 1,000 as they are, then K and M with one decimal', () => {
    expect(formatWebNumber(0)).toBe('0');
    expect(formatWebNumber(999)).toBe('999');
    expect(formatWebNumber(1000)).toBe('1.0K');
    expect(formatWebNumber(1540)).toBe('1.5K');
    expect(formatWebNumber(999_949)).toBe('999.9K');
    expect(formatWebNumber(999_960)).toBe('1.0M');
    expect(formatWebNumber(1_000_000)).toBe('1.0M');
    expect(formatWebNumber(2_460_000)).toBe('2.5M');
  });

  it("shows uptime as 'Nd Nh', 'Nh Nm' or 'Nm'", () => {
    expect(formatWebUptime(0)).toBe('0m');
    expect(formatWebUptime(59)).toBe('0m');
    expect(formatWebUptime(120)).toBe('2m');
    expect(formatWebUptime(3_720)).toBe('1h 2m');
    expect(formatWebUptime(90_061)).toBe('1d 1h');
    expect(formatWebUptime(-5)).toBe('0m');
  });

  it('colours the error rate: up to 1 % success, up to 5 % warning, above 5 % error', () => {
    expect(errorRateTone(0)).toBe('success');
    expect(errorRateTone(1)).toBe('success');
    expect(errorRateTone(1.01)).toBe('warning');
    expect(errorRateTone(5)).toBe('warning');
    expect(errorRateTone(5.01)).toBe('error');
    expect(formatErrorRate(0.4211)).toBe('0.42%');
  });

  it('colours a virtual host: maintenance info, unknown error; elsewhere unknown is info', () => {
    expect(vhostStatusTone('active')).toBe('success');
    expect(vhostStatusTone('inactive')).toBe('warning');
    expect(vhostStatusTone('maintenance')).toBe('info');
    expect(vhostStatusTone('broken')).toBe('error');
    expect(statusTone('failed')).toBe('error');
    expect(statusTone('maintenance')).toBe('info');
  });
});
