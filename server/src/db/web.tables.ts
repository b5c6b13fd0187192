import type { Generated } from 'kysely';

/** One virtual host (issue 19). The fields the list filters and sorts by are columns; the rest JSON. */
export interface WebVhostTable {
  id: Generated<number>;
  /** Punycode, lower case; unique. */
  domain: string;
  /** Lower-cased domain and document root: what `?q=` matches. */
  search: string;
  document_root: string;
  status: string;
  /** JSON of every other VirtualHostValues field (contract/src/web/vhosts.ts). */
  fields: string;
  created_at: string;
  /** ISO; the list's Last Modified. */
  updated_at: string;
}

/** Every host name a virtual host answers to (server name, domain, aliases): one owner per name. */
export interface WebVhostNameTable {
  name: string;
  vhost_id: number;
}

/** The one row of web server settings (id 1): JSON of WebServerSettings. */
export interface WebSettingsTable {
  id: number;
  settings: string;
  updated_at: string;
}

/** Requests of one host in one minute, from Apache's shared access log. */
export interface WebTrafficMinuteTable {
  vhost: string;
  /** Minutes since the epoch. */
  minute: number;
  requests: number;
  /** 5xx answers. */
  errors: number;
  bytes: number;
  /** Sum of the requests' durations (%D, microseconds). */
  duration_us: number;
}

/** SSL metrics: HTTPS requests per minute and per (protocol, cipher) (migration 0039). */
export interface WebTlsMinuteTable {
  /** Minutes since the epoch. */
  minute: number;
  /** SSL_PROTOCOL (TLSv1.3…). */
  protocol: string;
  /** SSL_CIPHER (OpenSSL name). */
  cipher: string;
  requests: number;
  /** Requests that were the first on their connection (%k = 0). */
  handshakes: number;
  /** Of the handshakes, those with SSL_SESSION_RESUMED = Resumed. */
  resumed: number;
}

/** How far the shared access log has been read (one row, id 1). */
export interface WebLogPositionTable {
  id: number;
  inode: string;
  byte_offset: number;
  updated_at: string;
}

/** One web application (issue 20); its config fields are JSON, its environment sealed. */
export interface WebAppTable {
  id: Generated<number>;
  name: string;
  domain: string;
  vhost_id: number;
  type: string;
  status: string;
  /** Lower-cased name, domain and description: what `?q=` matches. */
  search: string;
  /** JSON of every other config field (contract/src/web/applications.ts), without the environment. */
  fields: string;
  /** The custom environment variables, JSON sealed with the apps vault key. */
  env_sealed: string;
  env_names: string;
  status_message: string;
  current_release_id: number | null;
  running_port: number | null;
  /** JSON array of the loopback ports of every running instance (first = running_port); migration 0041. */
  instance_ports: Generated<string>;
  deploy_job_id: number | null;
  last_deployed: string | null;
  created_at: string;
  updated_at: string;
}

export interface WebAppReleaseTable {
  id: Generated<number>;
  app_id: number;
  number: number;
  state: string;
  trigger: string;
  source_release_id: number | null;
  ref: string;
  commit_sha: string | null;
  path: string | null;
  port: number | null;
  vhost_hash: string | null;
  env_sealed: string;
  env_names: string;
  disk_usage: number;
  timings: string;
  message: string;
  build_log: string;
  job_id: number | null;
  started_by: string | null;
  created_at: string;
  finished_at: string | null;
}

export interface WebAppLogLineTable {
  job_id: number;
  seq: number;
  app_id: number;
  at: string;
  stream: string;
  text: string;
}

/** Auto deploy of an application (migration 0043): the sealed webhook secret and the last check. */
export interface WebAppHookTable {
  app_id: number;
  secret_sealed: string | null;
  secret_created_at: string | null;
  last_commit: string | null;
  last_checked_at: string | null;
  last_result: string;
}

/** Webhook delivery ids seen inside the replay window (migration 0043). */
export interface WebAppHookDeliveryTable {
  app_id: number;
  delivery_id: string;
  received_at: number;
}

/** The latest reading of an application's Monitoring Endpoint (migration 0042). */
export interface WebAppMetricsTable {
  app_id: number;
  /** Epoch milliseconds (bigint on PostgreSQL: read back with Number()). */
  scraped_at: number | string;
  endpoint: string;
  ok: number;
  error: string | null;
  http_status: number | null;
  bytes: number;
  duration_ms: number;
  series_total: number;
  /** JSON: AppMetricSeries[]. */
  series: string;
}

/** The last SSL health check of one served HTTPS host name (migration 0038). */
export interface WebSslHealthTable {
  host_name: string;
  domain: string;
  port: number;
  /** ISO. */
  checked_at: string;
  /** 1: the handshake succeeded. */
  ok: number;
  /** SHA-256 of the served certificate (AB:CD:…). */
  fingerprint: string | null;
  /** The certificate the host is configured to serve (null: the default certificate). */
  expected_fingerprint: string | null;
  not_after: string | null;
  days_left: number | null;
  protocol: string | null;
  error: string | null;
}

export interface WebTables {
  web_ssl_health: WebSslHealthTable;
  web_apps: WebAppTable;
  web_app_releases: WebAppReleaseTable;
  web_app_log_lines: WebAppLogLineTable;
  web_app_hooks: WebAppHookTable;
  web_app_hook_deliveries: WebAppHookDeliveryTable;
  web_app_metrics: WebAppMetricsTable;
  web_traffic_minutes: WebTrafficMinuteTable;
  web_tls_minutes: WebTlsMinuteTable;
  web_log_position: WebLogPositionTable;
  web_vhosts: WebVhostTable;
  web_vhost_names: WebVhostNameTable;
  web_settings: WebSettingsTable;
}
