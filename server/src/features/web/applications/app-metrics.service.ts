import {
  APP_SCRAPE_INTERVAL_SECONDS,
  APP_SCRAPE_MAX_BYTES,
  APP_SCRAPE_MAX_SERIES,
  APP_SCRAPE_TIMEOUT_MS,
  type AppMetrics,
} from '@mailroom/contract/web/app-metrics';
import { scrapeLoopback } from '../../../host/http-scrape.ts';
import { appLogFile, servesFiles } from './app.layout.ts';
import { type AppMetricsReading, findMetrics, saveMetrics } from './app-metrics.repository.ts';
import { allApps, rowConfig } from './application.repository.ts';
import type { ApplicationService } from './application.service.ts';
import { parsePromText } from './prom-text.parser.ts';

let intervalMs = APP_SCRAPE_INTERVAL_SECONDS * 1000;
/** How often each app is scraped (tests make it short). */
export function setScrapeInterval(ms: number): void {
  intervalMs = ms;
}
export const scrapeIntervalMs = (): number => intervalMs;

/**
 * What the application panel and the System Logs screen read of a running app besides its status:
 * where its log is, and the figures of its Monitoring Endpoint (scraped by the process that runs
 * it, through the release's loopback port, kept as one row per app for every worker to read).
 */
export class AppObserver {
  private readonly last = new Map<number, number>();
  private busy = false;

  constructor(private readonly svc: ApplicationService) {}

  /** Every application's log file (machine path), for the System Logs screen. */
  async logTargets(): Promise<{ name: string; file: string }[]> {
    return (await allApps(this.svc.db)).map((r) => {
      const c = rowConfig(r);
      return { name: c.name, file: this.svc.ctx.deps.host.path(appLogFile(c)) };
    });
  }

  /** One round: each app with Enable Monitoring whose process runs here and whose interval has passed. */
  async scrapeDue(now = Date.now()): Promise<number> {
    if (this.busy) return 0;
    this.busy = true;
    let n = 0;
    try {
      for (const r of await allApps(this.svc.db)) {
        const c = rowConfig(r);
        const id = Number(r.id);
        const run = this.svc.runtime.get(id);
        if (!c.enableMonitoring || servesFiles(c.type) || !run) continue;
        if (now - (this.last.get(id) ?? 0) < intervalMs) continue;
        this.last.set(id, now);
        await saveMetrics(this.svc.db, id, await scrapeOnce(run.port, c.monitoringEndpoint));
        n++;
      }
    } finally {
      this.busy = false;
    }
    return n;
  }

  async metrics(name: string): Promise<AppMetrics> {
    const row = await this.svc.row(name);
    const c = rowConfig(row);
    const reading = await findMetrics(this.svc.db, Number(row.id));
    const base = {
      name: c.name,
      endpoint: c.monitoringEndpoint,
      intervalSeconds: Math.round(intervalMs / 1000),
    };
    const empty = {
      scrapedAt: null,
      error: null,
      httpStatus: null,
      bytes: 0,
      durationMs: 0,
      seriesTotal: 0,
      series: [],
    };
    if (!c.enableMonitoring) return { ...base, ...empty, state: 'off' };
    const running = !servesFiles(c.type) && row.running_port !== null && row.status !== 'inactive';
    if (!reading) return { ...base, ...empty, state: running ? 'not-scraped' : 'not-running' };
    return {
      ...base,
      state: reading.ok ? 'ok' : 'error',
      scrapedAt: new Date(reading.scrapedAt).toISOString(),
      error: reading.error,
      httpStatus: reading.httpStatus,
      bytes: reading.bytes,
      durationMs: reading.durationMs,
      seriesTotal: reading.seriesTotal,
      series: reading.series,
    };
  }
}

/** Scrapes and parses one endpoint (bounded in time, size and series). */
export async function scrapeOnce(port: number, endpoint: string): Promise<AppMetricsReading> {
  const scrapedAt = Date.now();
  const a = await scrapeLoopback(port, endpoint, {
    timeoutMs: APP_SCRAPE_TIMEOUT_MS,
    maxBytes: APP_SCRAPE_MAX_BYTES,
  });
  const base = { scrapedAt, endpoint, httpStatus: a.status, bytes: a.bytes, durationMs: a.ms };
  if (!a.ok) return { ...base, ok: false, error: a.error, seriesTotal: 0, series: [] };
  const parsed = parsePromText(a.body, APP_SCRAPE_MAX_SERIES);
  if (!parsed.ok) {
    const type = a.contentType.split(';')[0]?.trim();
    return {
      ...base,
      ok: false,
      error: type && type !== 'text/plain' ? `${parsed.error} (the endpoint answered ${type})` : parsed.error,
      seriesTotal: 0,
      series: [],
    };
  }
  return { ...base, ok: true, error: null, seriesTotal: parsed.total, series: parsed.series };
}
