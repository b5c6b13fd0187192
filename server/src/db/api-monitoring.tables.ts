import type { Generated } from 'kysely';

/** Requests of one minute (epoch minutes) to one route pattern, summed over every worker. */
export interface ApiStatMinuteTable {
  minute: number;
  method: string;
  route: string;
  count: number;
  /** 5xx answers. */
  errors: number;
  /** 4xx answers (429 included; `limited` counts those apart). */
  client_errors: number;
  limited: number;
  cache_hits: number;
  cache_misses: number;
  cache_bypasses: number;
  cache_evictions: number;
  total_ms: number;
  max_ms: number;
  /** Response-time histogram: h00 … h28 (see latency-histogram.service.ts). */
  [bucket: `h${number}`]: number;
}

/** Requests of one minute made with one API key, summed over every worker. */
export interface ApiKeyStatMinuteTable {
  minute: number;
  key_id: number;
  count: number;
  /** 5xx answers. */
  errors: number;
  /** 4xx answers (429 included; `limited` counts those apart). */
  client_errors: number;
  limited: number;
  total_ms: number;
  max_ms: number;
  /** Response-time histogram: h00 … h28 (see latency-histogram.service.ts). */
  [bucket: `h${number}`]: number;
}

/** Running totals per route and status since the database was made (Prometheus counters). */
export interface ApiStatTotalTable {
  method: string;
  route: string;
  status: number;
  count: number;
  total_ms: number;
  [bucket: `h${number}`]: number;
}

export interface ApiRecentRequestTable {
  id: Generated<number>;
  at: number;
  method: string;
  route: string;
  status: number;
  ms: number;
  /** 'hit' | 'miss' | 'bypass' | null (not a cached route). */
  cache: string | null;
}

export interface ApiSettingsTable {
  id: number;
  rate_enabled: number;
  rate_per_minute: number;
  rate_per_hour: number;
  cache_enabled: number;
  cache_ttl_seconds: number;
  cache_max_size: number;
  cache_generation: number;
  updated_at: number;
  metrics_protected: Generated<number>;
  /** JSON list of addresses / CIDR ranges. */
  metrics_allowed: Generated<string>;
}

/** An API key for automation (only its hash is stored). */
export interface ApiKeyTable {
  id: Generated<number>;
  name: string;
  token_hash: string;
  /** The key's first characters, to recognise it in the list. */
  prefix: string;
  /** 'read' | 'read-write' */
  access: string;
  /** JSON lists: areas ('mail', 'dns', 'ssl', 'system', 'metrics'), domains (empty: all), allowed addresses (empty: any). */
  areas: string;
  domains: string;
  allowed: string;
  expires_at: number | null;
  created_at: number;
  created_by: string;
  revoked_at: number | null;
  last_used_at: number | null;
  last_ip: string | null;
  requests: Generated<number>;
  errors: Generated<number>;
}

/** The editable rate limit's two fixed windows of one principal ('admin:<id>'). */
export interface ApiRateBucketTable {
  principal: string;
  minute_start: number;
  minute_hits: number;
  hour_start: number;
  hour_hits: number;
  admitted: number;
}

/** Each server process's response cache size, refreshed with its roll-ups. */
export interface ApiCacheNodeTable {
  node: string;
  size: number;
  seen_at: number;
}

export interface ApiMonitoringTables {
  api_stat_minutes: ApiStatMinuteTable;
  api_key_stat_minutes: ApiKeyStatMinuteTable;
  api_stat_totals: ApiStatTotalTable;
  api_recent_requests: ApiRecentRequestTable;
  api_settings: ApiSettingsTable;
  api_rate_buckets: ApiRateBucketTable;
  api_cache_nodes: ApiCacheNodeTable;
  api_keys: ApiKeyTable;
}
