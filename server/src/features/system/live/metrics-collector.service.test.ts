import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { MetricsCollector } from './metrics-collector.service.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('the metrics collector', () => {
  let c: MetricsCollector | null = null;
  afterEach(() => c?.close());

  it('samples fast only while someone watches, and feeds every subscriber', async () => {
    c = new MetricsCollector({ diskPath: os.tmpdir(), liveMs: 40, idleMs: 3_600_000 });
    await c.start();
    const seen: string[] = [];
    c.subscribe((s) => seen.push(s.sampledAt));
    await sleep(200);
    expect(seen).toHaveLength(0); // idle: one sample an hour here
    const release = c.watch();
    await sleep(400);
    expect(seen.length).toBeGreaterThanOrEqual(4);
    release();
    await sleep(100); // the sample already scheduled may still land
    const after = seen.length;
    await sleep(300);
    expect(seen.length).toBe(after);
    expect(c.watching).toBe(0);
  });

  it('answers a fresh reading when asked, though no stream watches this process (another worker holds it)', async () => {
    c = new MetricsCollector({ diskPath: os.tmpdir(), liveMs: 40, idleMs: 3_600_000 });
    await c.start();
    const first = c.latest()!.sampledAt;
    expect((await c.snapshot()).stats.sampledAt).toBe(first);
    await sleep(60);
    const asked = (await c.snapshot()).stats.sampledAt;
    expect(Date.parse(asked)).toBeGreaterThan(Date.parse(first));
    expect(c.watching).toBe(0);
  });

  it('keeps one point per minute (the running minute included) and the live window', async () => {
    c = new MetricsCollector({ diskPath: os.tmpdir(), idleMs: 3_600_000 });
    await c.start();
    await c.sample();
    const snap = await c.snapshot();
    expect(snap.series.cpu.length).toBeGreaterThanOrEqual(1);
    expect(snap.series.cpu.length).toBeLessThanOrEqual(2);
    expect(snap.live?.length).toBe(2);
    expect(snap.stats.memoryUsage).toBeGreaterThan(0);
    expect(snap.stats.memoryUsage).toBeLessThanOrEqual(100);
  });
});

describe('disk usage', () => {
  it('is used / (used + available), the figure df shows (issue 22 #11)', async () => {
    const dir = os.tmpdir();
    const c = new MetricsCollector({ diskPath: dir, idleMs: 3_600_000 });
    await c.start();
    const shown = c.latest()!.diskUsage;
    c.close();
    // df rounds the percentage up; the collector keeps one decimal.
    const df = execFileSync('df', ['-P', dir], { encoding: 'utf8' }).trim().split('\n').pop()!;
    const [, , used, avail] = df.split(/\s+/).map(Number);
    const expected = (100 * used!) / (used! + avail!);
    expect(Math.abs(shown - expected)).toBeLessThan(0.5);
  });
});

describe('active connections', () => {
  it('are the established TCP connections the Network Connections list shows (not CurrEstab, which adds CLOSE_WAIT)', async () => {
    const root = mkdtempSync(path.join(os.tmpdir(), 'proc-'));
    mkdirSync(path.join(root, 'net'));
    const head =
      '  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode\n';
    const row = (st: string) =>
      `   0: 0100007F:0019 0100007F:A1B2 ${st} 00000000:00000000 00:00000000 00000000     0        0 1234 1\n`;
    writeFileSync(path.join(root, 'stat'), 'cpu  1 0 1 10 0 0 0 0 0 0\n');
    writeFileSync(path.join(root, 'meminfo'), 'MemTotal: 1000 kB\nMemAvailable: 500 kB\n');
    writeFileSync(path.join(root, 'net', 'dev'), 'h\nh\n');
    // The kernel's counter says 5: 3 established and 2 in CLOSE_WAIT.
    writeFileSync(path.join(root, 'net', 'snmp'), 'Tcp: RtoAlgorithm CurrEstab\nTcp: 1 5\n');
    writeFileSync(path.join(root, 'net', 'tcp'), head + row('01') + row('01') + row('08') + row('0A'));
    writeFileSync(path.join(root, 'net', 'tcp6'), head + row('01') + row('08') + row('06'));
    const c = new MetricsCollector({ diskPath: os.tmpdir(), idleMs: 3_600_000, procRoot: root });
    await c.start();
    const n = c.latest()!.activeConnections;
    c.close();
    rmSync(root, { recursive: true, force: true });
    expect(n).toBe(3);
  });
});
