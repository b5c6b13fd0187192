import { type Kysely, sql } from 'kysely';
import type { Database } from '../../db/schema.ts';

export interface ApiSettings {
  rateEnabled: boolean;
  ratePerMinute: number;
  ratePerHour: number;
  cacheEnabled: boolean;
  cacheTtlSeconds: number;
  cacheMaxSize: number;
  cacheGeneration: number;
  /** When the row last changed: a read older than the settings held is not taken. */
  updatedAt: number;
  metricsProtected: boolean;
  /** Addresses / CIDR ranges that may read /metrics without a key. */
  metricsAllowed: string[];
}

function addressList(v: string): string[] {
  try {
    const parsed: unknown = JSON.parse(v);
    return Array.isArray(parsed) ? parsed.map(String) : [];
  } catch {
    return [];
  }
}

type Executor = Pick<Kysely<Database>, 'selectFrom' | 'updateTable'>;

export async function readApiSettings(db: Executor): Promise<ApiSettings> {
  const r = await db.selectFrom('api_settings').selectAll().where('id', '=', 1).executeTakeFirstOrThrow();
  return {
    rateEnabled: Number(r.rate_enabled) === 1,
    ratePerMinute: Number(r.rate_per_minute),
    ratePerHour: Number(r.rate_per_hour),
    cacheEnabled: Number(r.cache_enabled) === 1,
    cacheTtlSeconds: Number(r.cache_ttl_seconds),
    cacheMaxSize: Number(r.cache_max_size),
    cacheGeneration: Number(r.cache_generation),
    updatedAt: Number(r.updated_at),
    metricsProtected: Number(r.metrics_protected) === 1,
    metricsAllowed: addressList(r.metrics_allowed),
  };
}

export async function writeRateSettings(
  db: Executor,
  s: { enabled: boolean; perMinute: number; perHour: number },
  now = Date.now(),
): Promise<void> {
  await db
    .updateTable('api_settings')
    .set({
      rate_enabled: s.enabled ? 1 : 0,
      rate_per_minute: s.perMinute,
      rate_per_hour: s.perHour,
      updated_at: now,
    })
    .where('id', '=', 1)
    .execute();
}

export async function writeCacheSettings(
  db: Executor,
  s: { enabled: boolean; ttlSeconds: number; maxSize: number },
  now = Date.now(),
): Promise<void> {
  await db
    .updateTable('api_settings')
    .set({
      cache_enabled: s.enabled ? 1 : 0,
      cache_ttl_seconds: s.ttlSeconds,
      cache_max_size: s.maxSize,
      updated_at: now,
    })
    .where('id', '=', 1)
    .execute();
}

/** Clear: every process empties its cache when it next reads the settings. */
export async function bumpCacheGeneration(db: Executor, now = Date.now()): Promise<void> {
  await db
    .updateTable('api_settings')
    .set({ cache_generation: sql`cache_generation + 1`, updated_at: now })
    .where('id', '=', 1)
    .execute();
}
