import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { SystemStats } from '@mailroom/contract/system-metrics';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type DatabaseHandle, openDatabase } from '../../../db/database.ts';
import { createLocks, type Locks } from '../../../db/locks.ts';
import { migrateToLatest } from '../../../db/migrate.ts';
import type { DaemonState } from '../../../host/service-control.ts';
import { type AlertChange, AlertEngine } from './alert-engine.service.ts';
import type { MetricsSource } from '../live/metrics-source.types.ts';

/**
 * Alert timing with a fake clock (issue 22 #12): the engine on a real (SQLite) database, its
 * inputs and its clock driven by the test, evaluated once per 30 s sample as the timer does.
 */
class FakeMetrics implements MetricsSource {
  stats: SystemStats | undefined;
  latest() {
    return this.stats;
  }
  subscribe() {
    return () => undefined;
  }
  set(p: Partial<SystemStats>) {
    this.stats = {
      sampledAt: new Date().toISOString(),
      uptime: 100,
      loadAverage: [0.1, 0.1, 0.1],
      cpuUsage: 10,
      memoryUsage: 20,
      diskUsage: 30,
      networkIn: 0,
      networkOut: 0,
      activeConnections: 1,
      totalProcesses: 10,
      runningServices: 1,
      totalServices: 1,
      ...p,
    };
  }
}

const SECOND = 1000;
const down = (name: DaemonState['name'], extra: Partial<DaemonState> = {}): DaemonState => ({
  name,
  state: 'stopped',
  pid: null,
  since: null,
  detail: 'Stopped.',
  ...extra,
});

describe('alert timing (fake clock)', () => {
  let dir: string;
  let database: DatabaseHandle;
  let locks: Locks;
  let now: number;
  let changes: AlertChange[];
  let engine: AlertEngine;
  const metrics = new FakeMetrics();
  let daemons: DaemonState[] = [];

  beforeEach(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'mailroom-alerts-'));
    database = openDatabase({ dataDir: dir });
    await migrateToLatest(database.db);
    locks = createLocks(database);
    now = Date.parse('2026-11-27T10:00:00Z');
    changes = [];
    daemons = [];
    metrics.set({});
    engine = new AlertEngine(
      database.db,
      locks,
      {
        metrics,
        clock: () => now,
        queueSize: async () => 0,
        services: {
          reload: async () => ({ ok: true, attempted: false, output: '' }),
          states: async () => daemons,
          close: async () => undefined,
        },
      },
      async (c) => void changes.push(...c),
      (err) => {
        throw err;
      },
    );
  });
  afterEach(async () => {
    await locks.close();
    await database.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** One sample every 30 s for `seconds`, each value from `value(i)`. */
  async function run(seconds: number, sample: (i: number) => void) {
    for (let i = 0; i * 30 < seconds; i++) {
      sample(i);
      await engine.evaluate();
      now += 30 * SECOND;
    }
  }
  const raised = () => changes.filter((c) => c.event === 'alert.raised');
  const resolved = () => changes.filter((c) => c.event === 'alert.resolved');
  const rows = () => database.db.selectFrom('system_alerts').selectAll().execute();

  it('a CPU hovering at its warning threshold for 25 minutes raises one alert, not one per crossing', async () => {
    // 82 % then 78 % in turn (the default warning threshold is 80 %): the flapping the issue saw.
    await run(25 * 60, (i) => metrics.set({ cpuUsage: i % 2 ? 78 : 82 }));
    expect(raised()).toHaveLength(1);
    expect(resolved()).toHaveLength(0);
    expect(raised()[0]!.alert).toMatchObject({ type: 'cpu', severity: 'warning' });
    expect(await rows()).toHaveLength(1);
  });

  it('one busy sample raises nothing; a figure over its threshold for two minutes raises once', async () => {
    metrics.set({ cpuUsage: 97 });
    await engine.evaluate();
    now += 30 * SECOND;
    metrics.set({ cpuUsage: 12 });
    await engine.evaluate();
    expect(changes).toEqual([]);

    await run(90, () => metrics.set({ cpuUsage: 97 }));
    expect(raised()).toHaveLength(0); // 0, 30, 60, 90 s: not yet two minutes
    await run(60, () => metrics.set({ cpuUsage: 97 }));
    expect(raised()).toHaveLength(1);
    expect(raised()[0]!.alert).toMatchObject({ severity: 'critical', title: 'High CPU usage' });
  });

  it('resolves only after two minutes under the threshold less 5 points of hysteresis', async () => {
    await run(150, () => metrics.set({ diskUsage: 88 })); // default disk warning 85 %
    expect(raised()).toHaveLength(1);
    // 82 % is under 85 % but within the hysteresis: still holding.
    await run(10 * 60, () => metrics.set({ diskUsage: 82 }));
    expect(resolved()).toHaveLength(0);
    // Under 80 %: resolved after two minutes, not at once.
    await run(90, () => metrics.set({ diskUsage: 70 }));
    expect(resolved()).toHaveLength(0);
    await run(60, () => metrics.set({ diskUsage: 70 }));
    expect(resolved()).toHaveLength(1);
    expect((await rows())[0]!.resolved_at).not.toBeNull();
  });

  it('a warning that turns critical escalates the same alert (one row, sent again as critical)', async () => {
    await run(150, () => metrics.set({ memoryUsage: 88 })); // default memory 85 / 95
    expect(raised()).toHaveLength(1);
    await run(150, () => metrics.set({ memoryUsage: 97 }));
    const all = await rows();
    expect(all).toHaveLength(1);
    expect(all[0]!.severity).toBe('critical');
    expect(raised()).toHaveLength(2);
    expect(raised()[1]).toMatchObject({ escalated: true, alert: { id: raised()[0]!.alert.id } });
  });

  it('a daemon not started yet, starting or restarting on purpose is not "Service down"', async () => {
    // Mailroom's start: every daemon waits for its files, then starts (minutes on a slow machine).
    await run(
      5 * 60,
      (i) =>
        (daemons = [
          down('postfix', { detail: 'Mailroom starts it once its files are rendered.', pending: 'starting' }),
          down('dovecot', { pending: i < 4 ? 'starting' : 'restarting' }),
          down('named', { pending: 'stopping' }),
        ]),
    );
    expect(changes).toEqual([]);
  });

  it('a daemon down for a minute is "Service down"; a restart on purpose neither raises nor resolves it', async () => {
    await run(
      30,
      () => (daemons = [down('postfix', { state: 'failed', detail: 'postfix exited (code 1).' })]),
    );
    expect(raised()).toHaveLength(0); // the supervisor restarts a crashed daemon within seconds
    await run(
      60,
      () => (daemons = [down('postfix', { state: 'failed', detail: 'postfix exited (code 1).' })]),
    );
    expect(raised()).toHaveLength(1);
    expect(raised()[0]!.alert).toMatchObject({
      title: 'Service down: postfix',
      severity: 'critical',
      message: 'postfix exited (code 1).',
    });
    await run(60, () => (daemons = [down('postfix', { pending: 'restarting' })]));
    expect(resolved()).toHaveLength(0);
    await run(30, () => (daemons = [{ ...down('postfix'), state: 'running', pid: 42, detail: 'Running.' }]));
    expect(resolved()).toHaveLength(1);
    expect(raised()).toHaveLength(1);
  });
});
