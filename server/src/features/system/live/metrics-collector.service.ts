import os from 'node:os';
import type {
  MetricsAnswer,
  PerformanceSeries,
  SeriesPoint,
  SystemStats,
} from '@mailroom/contract/system-metrics';
import { cpuPercent, diskPercent, type HostSample, readHostSample } from '../../../host/proc-stats.ts';
import type { MetricsSource } from './metrics-source.types.ts';

export interface CollectorOptions {
  /** The folder whose file system is "the disk" (the data folder). */
  diskPath: string;
  /** Running and total services; read at most every `servicesEveryMs`. */
  services?: () => Promise<{ running: number; total: number }>;
  /** Sampling while someone watches. Default 2 s. */
  liveMs?: number;
  /** Sampling while nobody watches. Default 60 s. */
  idleMs?: number;
  servicesEveryMs?: number;
  procRoot?: string;
}

type SeriesKey = keyof PerformanceSeries;
const KEYS: SeriesKey[] = ['cpu', 'memory', 'disk', 'networkIn', 'networkOut', 'load'];
const POINTS = 60;
const MINUTE = 60_000;

function valuesOf(s: SystemStats): Record<SeriesKey, number> {
  return {
    cpu: s.cpuUsage,
    memory: s.memoryUsage,
    disk: s.diskUsage,
    networkIn: s.networkIn,
    networkOut: s.networkOut,
    load: s.loadAverage[0],
  };
}

const round1 = (n: number) => Math.round(n * 10) / 10;

/**
 * The server's one metrics collector: reads /proc every 2 s while at least one console watches
 * (`watch()`), every minute otherwise. Keeps the spec's 60 one-minute points (the mean of the
 * samples in each minute) and the last minute of live samples; every sample goes to subscribers.
 *
 * In a cluster each process has its own collector: a reading is a few small /proc files (well under
 * a millisecond of CPU), and only a process with a watching stream samples every 2 s.
 */
export class MetricsCollector implements MetricsSource {
  private readonly listeners = new Set<(s: SystemStats) => void>();
  private readonly series: Record<SeriesKey, SeriesPoint[]> = {
    cpu: [],
    memory: [],
    disk: [],
    networkIn: [],
    networkOut: [],
    load: [],
  };
  private bucket: { minute: number; n: number; sums: Record<SeriesKey, number> } | null = null;
  private readonly liveWindow: SystemStats[] = [];
  private last: { sample: HostSample; at: number } | null = null;
  private current: SystemStats | undefined;
  private watchers = 0;
  private timer: NodeJS.Timeout | null = null;
  private sampling: Promise<void> | null = null;
  private closed = false;
  private servicesCount = { running: 0, total: 0 };
  private servicesAt = 0;
  private readonly liveMs: number;
  private readonly idleMs: number;
  private readonly servicesEveryMs: number;

  constructor(private readonly opts: CollectorOptions) {
    this.liveMs = opts.liveMs ?? 2000;
    this.idleMs = opts.idleMs ?? MINUTE;
    this.servicesEveryMs = opts.servicesEveryMs ?? 30_000;
  }

  /** Takes the first sample and keeps sampling until `close()`. */
  async start(): Promise<void> {
    await this.sample();
    this.schedule();
  }

  latest(): SystemStats | undefined {
    return this.current;
  }

  subscribe(listener: (stats: SystemStats) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** A console is watching: sample every 2 s until the returned release is called. */
  watch(): () => void {
    this.watchers++;
    if (this.watchers === 1) this.schedule(0);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.watchers--;
    };
  }

  get watching(): number {
    return this.watchers;
  }

  /** The latest figures with the 60-minute series (the running minute included) and the live window. */
  async snapshot(): Promise<Omit<MetricsAnswer, 'thresholds'>> {
    // A console asking is a console watching, whichever worker holds its stream: this process,
    // idle (one reading a minute), would otherwise answer a reading up to a minute old.
    if (!this.current || Date.now() - Date.parse(this.current.sampledAt) >= this.liveMs) await this.sample();
    const series = {} as PerformanceSeries;
    for (const k of KEYS) {
      const points = [...this.series[k]];
      if (this.bucket && this.bucket.n > 0)
        points.push({
          timestamp: new Date(this.bucket.minute * MINUTE).toISOString(),
          value: round1(this.bucket.sums[k] / this.bucket.n),
        });
      series[k] = points.slice(-POINTS);
    }
    return { stats: this.current!, series, live: [...this.liveWindow] };
  }

  /** Forces a fresh reading of the service counts at the next sample (after a start or stop). */
  servicesChanged(): void {
    this.servicesAt = 0;
  }

  close(): void {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.listeners.clear();
  }

  private schedule(delay?: number): void {
    if (this.closed) return;
    if (this.timer) clearTimeout(this.timer);
    const wait = delay ?? (this.watchers > 0 ? this.liveMs : this.idleMs);
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.sample().finally(() => this.schedule());
    }, wait);
    this.timer.unref();
  }

  /** One reading; concurrent callers share it. */
  sample(): Promise<void> {
    this.sampling ??= this.read().finally(() => (this.sampling = null));
    return this.sampling;
  }

  private async read(): Promise<void> {
    const at = Date.now();
    const s = await readHostSample(this.opts.diskPath, this.opts.procRoot);
    this.refreshServices(at);
    const prev = this.last;
    const secs = prev ? (at - prev.at) / 1000 : 0;
    const rate = (now: number, before: number) => (secs > 0 ? Math.max(0, (now - before) / secs) : 0);
    const stats: SystemStats = {
      sampledAt: new Date(at).toISOString(),
      uptime: Math.floor(os.uptime()),
      loadAverage: os.loadavg().map(round1) as [number, number, number],
      // The first reading has no earlier one: the average since boot.
      cpuUsage: round1(cpuPercent(prev?.sample.cpu ?? { idle: 0, total: 0 }, s.cpu)),
      memoryUsage: s.mem.total ? round1((100 * (s.mem.total - s.mem.available)) / s.mem.total) : 0,
      diskUsage: round1(diskPercent(s.disk)),
      networkIn: Math.round(prev ? rate(s.net.rx, prev.sample.net.rx) : 0),
      networkOut: Math.round(prev ? rate(s.net.tx, prev.sample.net.tx) : 0),
      activeConnections: s.established,
      totalProcesses: s.processes,
      runningServices: this.servicesCount.running,
      totalServices: this.servicesCount.total,
    };
    this.last = { sample: s, at };
    this.current = stats;
    this.record(stats, at);
    for (const l of this.listeners) {
      try {
        l(stats);
      } catch {
        /* a listener's failure is its own */
      }
    }
  }

  private refreshServices(at: number): void {
    const read = this.opts.services;
    if (!read || at - this.servicesAt < this.servicesEveryMs) return;
    this.servicesAt = at;
    read().then(
      (c) => (this.servicesCount = c),
      () => undefined,
    );
  }

  private record(stats: SystemStats, at: number): void {
    this.liveWindow.push(stats);
    while (this.liveWindow.length && at - Date.parse(this.liveWindow[0]!.sampledAt) > MINUTE)
      this.liveWindow.shift();
    const minute = Math.floor(at / MINUTE);
    if (this.bucket && this.bucket.minute !== minute && this.bucket.n > 0) {
      const b = this.bucket;
      for (const k of KEYS) {
        this.series[k].push({
          timestamp: new Date(b.minute * MINUTE).toISOString(),
          value: round1(b.sums[k] / b.n),
        });
        if (this.series[k].length > POINTS) this.series[k].shift();
      }
      this.bucket = null;
    }
    this.bucket ??= {
      minute,
      n: 0,
      sums: { cpu: 0, memory: 0, disk: 0, networkIn: 0, networkOut: 0, load: 0 },
    };
    const v = valuesOf(stats);
    for (const k of KEYS) this.bucket.sums[k] += v[k];
    this.bucket.n++;
  }
}
