import { statfsSync } from 'node:fs';
import os from 'node:os';
import { SystemStatus } from '@mailroom/contract/system';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialects, startTestApp, type TestContext } from '../harness.ts';

describe.each(dialects())('GET /api/system/status on %s', (dialect) => {
  let t: TestContext;
  beforeAll(async () => {
    t = await startTestApp(dialect);
  });
  afterAll(async () => t.close());

  it('reads uptime, memory and the data folder’s disk from the machine', async () => {
    const res = await t.call({ url: '/api/system/status' });
    expect(res.statusCode).toBe(200);
    const s = SystemStatus.strict().parse(res.json());
    expect(Math.abs(s.uptime - os.uptime())).toBeLessThanOrEqual(5);
    expect(Number.isInteger(s.uptime)).toBe(true);

    expect(s.memory.total).toBe(os.totalmem());
    expect(s.memory.used).toBeGreaterThan(0);
    expect(s.memory.used).toBeLessThanOrEqual(s.memory.total);

    const fsStat = statfsSync(t.dataDir);
    const diskTotal = fsStat.blocks * fsStat.bsize;
    expect(s.disk.total).toBeGreaterThan(0);
    expect(Math.abs(s.disk.total - diskTotal) / diskTotal).toBeLessThan(0.02);
    expect(s.disk.used).toBeGreaterThan(0);
    expect(s.disk.used).toBeLessThanOrEqual(s.disk.total);

    const freeShare = (fsStat.bavail * fsStat.bsize) / diskTotal;
    const memFree = os.freemem() / os.totalmem();
    if (freeShare > 0.05 && memFree > 0.05) expect(s.status).toBe('running');
  });
});
