import type { SystemStats } from '@mailroom/contract/system-metrics';
import type { MetricsSource } from '../src/features/system/live/metrics-source.types.ts';

/** A metrics source the test controls: each `emit` is a new sample. */
export class FakeMetrics implements MetricsSource {
  private stats: SystemStats | undefined;
  private listeners = new Set<(s: SystemStats) => void>();
  latest() {
    return this.stats;
  }
  subscribe(l: (s: SystemStats) => void) {
    this.listeners.add(l);
    return () => this.listeners.delete(l);
  }
  emit(p: Partial<SystemStats>) {
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
    for (const l of this.listeners) l(this.stats);
  }
}
