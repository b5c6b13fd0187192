/** One fixed window of the API rate limit, shared by every instance on one database. */
export interface RateLimitTable {
  /** 'ip:<address>' or 'session:<id>' */
  bucket: string;
  window_start: number;
  hits: number;
}

export interface SecurityTables {
  rate_limits: RateLimitTable;
}
