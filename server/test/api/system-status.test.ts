import { execFileSync } from 'node:child_process';
import { statfsSync } from 'node:fs';
import os from 'node:os';
import { SystemStatus } from '@mailroom/contract/system';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DaemonState } from '../../src/host/service-control.ts';
import { dialects, startTestApp, type TestContext } from '../harness.ts';

describe.each(dialects())('GET /api/system/status on %s', (dialect) => {
  let t: TestContext;
  let daemons: DaemonState[] = [];
  beforeAll(async () => {
    t = await startTestApp(dialect, {
      services: async () => ({
        reload: async () => ({ ok: true, attempted: false, output: '' }),
        states: async () => daemons,
        close: async () => undefined,
      }),
    });
  });
  afterAll(async () => t.close());

  const status = async () => {
    const res = await t.call({ url: '/api/system/status' });
    expect(res.statusCode, res.body).toBe(200);
    return SystemStatus.strict().parse(res.json());
  };

  it('reads uptime, memory and the data folder’s disk from the machine', async () => {
    const s = await status();
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
    if (freeShare > 0.2 && memFree > 0.2) expect(s.status).toBe('running');
  });

  it('shows disk usage as df does, and the same figures and thresholds as /system and the alerts', async () => {
    const s = await status();
    const row = execFileSync('df', ['-P', t.dataDir], { encoding: 'utf8' }).trim().split('\n').pop()!;
    const [, , used, avail] = row.split(/\s+/).map(Number);
    expect(Math.abs(s.disk.percent - (100 * used!) / (used! + avail!))).toBeLessThan(0.5);
    const metrics = (await t.call({ url: '/api/system/metrics' })).json<{
      stats: { diskUsage: number; memoryUsage: number };
      thresholds: unknown;
    }>();
    expect(Math.abs(metrics.stats.diskUsage - s.disk.percent)).toBeLessThan(0.5);
    expect(Math.abs(metrics.stats.memoryUsage - s.memory.percent)).toBeLessThan(5);
    // One set of thresholds: the engine's settings (defaults 80/95, 85/95, 85/95), everywhere.
    expect(s.thresholds).toEqual({
      cpu: { warning: 80, critical: 95 },
      memory: { warning: 85, critical: 95 },
      disk: { warning: 85, critical: 95 },
    });
    expect(metrics.thresholds).toEqual(s.thresholds);
  });

  it('reflects the mail and DNS daemons and open critical alerts, with the reason', async () => {
    daemons = [
      { name: 'postfix', state: 'failed', pid: null, since: null, detail: 'postfix exited (code 1).' },
      { name: 'dovecot', state: 'running', pid: 10, since: null, detail: 'Run by Mailroom.' },
      {
        name: 'named',
        state: 'stopped',
        pid: null,
        since: null,
        detail: 'Restarting from named.conf.',
        pending: 'restarting',
      },
    ];
    let s = await status();
    expect(s.status).toBe('critical');
    expect(s.daemons.map((d) => [d.name, d.state])).toEqual([
      ['postfix', 'failed'],
      ['dovecot', 'running'],
      ['named', 'stopped'],
    ]);
    expect(s.reasons[0]).toMatchObject({ severity: 'critical', source: 'postfix' });
    expect(s.reasons[0]!.message).toMatch(/^Postfix has failed: mail is neither received nor sent\./);
    expect(s.reasons.find((r) => r.source === 'named')).toMatchObject({ severity: 'warning' });

    // A restart on purpose is a warning only; an open critical alert makes it critical again.
    daemons = daemons.filter((d) => d.name !== 'postfix');
    s = await status();
    expect(s.status).toBe('degraded');
    await t.deps.database.db
      .insertInto('system_alerts')
      .values({
        type: 'backup',
        condition_key: 'backup',
        severity: 'critical',
        title: 'Backup failed',
        message: 'The latest backup failed.',
        raised_at: Date.now(),
      })
      .execute();
    s = await status();
    expect(s.status).toBe('critical');
    expect(s.openCriticalAlerts).toBe(1);
    expect(s.reasons[0]).toMatchObject({
      severity: 'critical',
      source: 'alerts',
      message: '1 open critical alert: Backup failed.',
    });
    await t.deps.database.db.updateTable('system_alerts').set({ resolved_at: Date.now() }).execute();
    daemons = [];
  });
});
