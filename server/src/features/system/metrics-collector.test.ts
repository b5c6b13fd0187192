import os from 'node:os';
import { execFileSync } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { MetricsCollector } from './metrics-collector.ts';

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
