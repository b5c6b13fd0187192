import type { AppMetricSeries } from '@mailroom/contract/web/app-metrics';
import type { Kysely, Selectable } from 'kysely';
import type { Database } from '../../../db/schema.ts';
import type { WebAppMetricsTable } from '../../../db/web.tables.ts';

type Db = Kysely<Database>;
export type AppMetricsRow = Selectable<WebAppMetricsTable>;

export interface AppMetricsReading {
  scrapedAt: number;
  endpoint: string;
  ok: boolean;
  error: string | null;
  httpStatus: number | null;
  bytes: number;
  durationMs: number;
  seriesTotal: number;
  series: AppMetricSeries[];
}

export function toReading(r: AppMetricsRow): AppMetricsReading {
  return {
    scrapedAt: Number(r.scraped_at),
    endpoint: r.endpoint,
    ok: Number(r.ok) === 1,
    error: r.error,
    httpStatus: r.http_status === null ? null : Number(r.http_status),
    bytes: Number(r.bytes),
    durationMs: Number(r.duration_ms),
    seriesTotal: Number(r.series_total),
    series: JSON.parse(r.series) as AppMetricSeries[],
  };
}

export async function findMetrics(db: Db, appId: number): Promise<AppMetricsReading | null> {
  const r = await db.selectFrom('web_app_metrics').selectAll().where('app_id', '=', appId).executeTakeFirst();
  return r ? toReading(r) : null;
}

/** The latest reading replaces the previous one (one row per application). */
export async function saveMetrics(db: Db, appId: number, m: AppMetricsReading): Promise<void> {
  const row = {
    scraped_at: m.scrapedAt,
    endpoint: m.endpoint,
    ok: m.ok ? 1 : 0,
    error: m.error,
    http_status: m.httpStatus,
    bytes: m.bytes,
    duration_ms: m.durationMs,
    series_total: m.seriesTotal,
    series: JSON.stringify(m.series),
  };
  await db
    .insertInto('web_app_metrics')
    .values({ app_id: appId, ...row })
    .onConflict((oc) => oc.column('app_id').doUpdateSet(row))
    .execute();
}

export async function deleteMetrics(db: Db, appId: number): Promise<void> {
  await db.deleteFrom('web_app_metrics').where('app_id', '=', appId).execute();
}
