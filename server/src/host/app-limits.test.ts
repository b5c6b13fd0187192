import { describe, expect, it } from 'vitest';
import { buildLimits, parseCpuLimit, parseMemoryLimit, systemdScopePrefix } from './app-limits.ts';

describe('Memory Limit and CPU Limit as the kernel takes them', () => {
  it('memory: Ki/Mi/Gi or bytes; empty is no limit', () => {
    expect(parseMemoryLimit('512Mi')).toBe(512 * 1024 * 1024);
    expect(parseMemoryLimit('2Gi')).toBe(2 * 1024 ** 3);
    expect(parseMemoryLimit('64Ki')).toBe(65536);
    expect(parseMemoryLimit('1000000')).toBe(1_000_000);
    expect(parseMemoryLimit('')).toBeNull();
  });

  it('CPU: millicores or CPUs → µs per 100 ms period', () => {
    expect(parseCpuLimit('500m')).toBe(50_000);
    expect(parseCpuLimit('1.5')).toBe(150_000);
    expect(parseCpuLimit('2')).toBe(200_000);
    expect(parseCpuLimit('')).toBeNull();
  });

  it('builds: half the CPUs (at least half of one) and 2 GiB', () => {
    expect(buildLimits(2)).toEqual({ memoryBytes: 2 * 1024 ** 3, cpuQuotaUs: 100_000 });
    expect(buildLimits(1).cpuQuotaUs).toBe(50_000);
    expect(buildLimits(8).cpuQuotaUs).toBe(400_000);
  });

  it('systemd mode: a transient scope per instance with MemoryMax and CPUQuota, as the app user', () => {
    expect(
      systemdScopePrefix(
        'mailroom-app-shop-41000',
        { memoryBytes: 536870912, cpuQuotaUs: 50_000 },
        { uid: 990, gid: 990 },
      ),
    ).toEqual([
      'systemd-run',
      '--scope',
      '--quiet',
      '--collect',
      '--unit=mailroom-app-shop-41000',
      '--uid=990',
      '--gid=990',
      '-p',
      'MemoryMax=536870912',
      '-p',
      'MemorySwapMax=0',
      '-p',
      'CPUQuota=50%',
      '--',
    ]);
  });
});
