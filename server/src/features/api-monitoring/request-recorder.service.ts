import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import {
  flushStats,
  type KeyMinuteDelta,
  type MinuteDelta,
  type RecentRequest,
  RECENT_KEPT,
  type TotalDelta,
} from './api-stats.repository.ts';
import { bucketOf, LATENCY_BUCKETS } from './latency-histogram.service.ts';

export type CacheOutcome = 'hit' | 'miss' | 'bypass';

export interface RecordedRequest {
  method: string;
  /** The route pattern ('unmatched' when no route matched). */
  route: string;
  status: number;
  ms: number;
  /** Counted in the page's statistics (API traffic other than the page's own polling…). */
  api: boolean;
  cache: CacheOutcome | null;
  /** The API key the request was made with (its per-key figures), null for a session. */
  keyId?: number | null;
}

/** How often each process adds what it counted to the shared roll-ups. */
export const FLUSH_INTERVAL_MS = 2000;
/** How often an idle process still reports its cache size (readers count reports of the last 30 s). */
export const NODE_REFRESH_MS = 10_000;

/**
 * Counts this process's requests in memory and adds them to the database roll-ups every few
 * seconds (and before any read of them), so the figures are those of every worker and instance.
 */
export class RequestRecorder {
  private minutes = new Map<string, MinuteDelta>();
  private keyMinutes = new Map<string, KeyMinuteDelta>();
  private totals = new Map<string, TotalDelta>();
  private recent: RecentRequest[] = [];
  private evictions = 0;
  private flushing: Promise<void> = Promise.resolve();
  /** The cache size last written and when: an idle process refreshes it only every NODE_REFRESH_MS. */
  private nodeWritten = { size: -1, at: 0 };

  constructor(
    private readonly db: Kysely<Database>,
    private readonly node: string,
    private readonly cacheSize: () => number = () => 0,
  ) {}

  record(r: RecordedRequest, now = Date.now()): void {
    const bucket = bucketOf(r.ms);
    const tKey = `${r.method} ${r.status} ${r.route}`;
    let t = this.totals.get(tKey);
    if (!t) {
      t = {
        method: r.method,
        route: r.route,
        status: r.status,
        count: 0,
        totalMs: 0,
        buckets: new Array<number>(LATENCY_BUCKETS).fill(0),
      };
      this.totals.set(tKey, t);
    }
    t.count++;
    t.totalMs += r.ms;
    t.buckets[bucket]!++;
    const minute = Math.floor(now / 60_000);
    // Every call made with a key is one of its figures (a /metrics scrape too): the key's own use.
    if (r.keyId != null) {
      const kKey = `${minute} ${r.keyId}`;
      let k = this.keyMinutes.get(kKey);
      if (!k) {
        k = emptyKeyMinute(minute, r.keyId);
        this.keyMinutes.set(kKey, k);
      }
      k.count++;
      if (r.status >= 500) k.errors++;
      else if (r.status >= 400) k.clientErrors++;
      if (r.status === 429) k.limited++;
      k.totalMs += r.ms;
      if (r.ms > k.maxMs) k.maxMs = r.ms;
      k.buckets[bucket]!++;
    }
    if (!r.api) return;

    const mKey = `${minute} ${r.method} ${r.route}`;
    let m = this.minutes.get(mKey);
    if (!m) {
      m = emptyMinute(minute, r.method, r.route);
      this.minutes.set(mKey, m);
    }
    m.count++;
    if (r.status >= 500) m.errors++;
    else if (r.status >= 400) m.clientErrors++;
    if (r.status === 429) m.limited++;
    if (r.cache === 'hit') m.cacheHits++;
    else if (r.cache === 'miss') m.cacheMisses++;
    else if (r.cache === 'bypass') m.cacheBypasses++;
    m.totalMs += r.ms;
    if (r.ms > m.maxMs) m.maxMs = r.ms;
    m.buckets[bucket]!++;
    this.recent.push({
      at: now,
      method: r.method,
      route: r.route,
      status: r.status,
      ms: r.ms,
      cache: r.cache,
    });
    // Trimmed in steps (the flush keeps only the last RECENT_KEPT): not a shift of the array per request.
    if (this.recent.length >= 2 * RECENT_KEPT) this.recent.splice(0, this.recent.length - RECENT_KEPT);
  }

  /** Entries the response cache dropped to make room (counted with the minute's figures). */
  evicted(n = 1): void {
    this.evictions += n;
  }

  /** Adds everything counted so far to the database (one flush at a time, in order). */
  flush(now = Date.now()): Promise<void> {
    const next = this.flushing.then(() => this.flushNow(now));
    this.flushing = next.catch(() => undefined);
    return next;
  }

  private async flushNow(now: number): Promise<void> {
    if (this.evictions) {
      const minute = Math.floor(now / 60_000);
      const key = `${minute} - (cache)`;
      const m = this.minutes.get(key) ?? emptyMinute(minute, '-', '(cache)');
      m.cacheEvictions += this.evictions;
      this.minutes.set(key, m);
      this.evictions = 0;
    }
    const minutes = [...this.minutes.values()];
    const keyMinutes = [...this.keyMinutes.values()];
    const totals = [...this.totals.values()];
    const recent = this.recent.length > RECENT_KEPT ? this.recent.slice(-RECENT_KEPT) : this.recent;
    const size = this.cacheSize();
    // Nothing counted and the cache unchanged: an idle process writes only now and then.
    if (
      !minutes.length &&
      !keyMinutes.length &&
      !totals.length &&
      !recent.length &&
      size === this.nodeWritten.size &&
      now - this.nodeWritten.at < NODE_REFRESH_MS
    )
      return;
    this.minutes = new Map();
    this.keyMinutes = new Map();
    this.totals = new Map();
    this.recent = [];
    try {
      await flushStats(this.db, {
        minutes,
        keyMinutes,
        totals,
        recent,
        node: { node: this.node, size, now },
      });
      this.nodeWritten = { size, at: now };
    } catch (err) {
      // Kept for the next flush: a busy database delays the figures, it does not lose them.
      for (const m of minutes) mergeMinute(this.minutes, m);
      for (const k of keyMinutes) mergeKeyMinute(this.keyMinutes, k);
      for (const t of totals) mergeTotal(this.totals, t);
      this.recent = [...recent, ...this.recent].slice(-RECENT_KEPT);
      throw err;
    }
  }
}

function emptyMinute(minute: number, method: string, route: string): MinuteDelta {
  return {
    minute,
    method,
    route,
    count: 0,
    errors: 0,
    clientErrors: 0,
    limited: 0,
    cacheHits: 0,
    cacheMisses: 0,
    cacheBypasses: 0,
    cacheEvictions: 0,
    totalMs: 0,
    maxMs: 0,
    buckets: new Array<number>(LATENCY_BUCKETS).fill(0),
  };
}

function emptyKeyMinute(minute: number, keyId: number): KeyMinuteDelta {
  return {
    minute,
    keyId,
    count: 0,
    errors: 0,
    clientErrors: 0,
    limited: 0,
    totalMs: 0,
    maxMs: 0,
    buckets: new Array<number>(LATENCY_BUCKETS).fill(0),
  };
}

function mergeKeyMinute(into: Map<string, KeyMinuteDelta>, k: KeyMinuteDelta): void {
  const key = `${k.minute} ${k.keyId}`;
  const cur = into.get(key);
  if (!cur) {
    into.set(key, k);
    return;
  }
  cur.count += k.count;
  cur.errors += k.errors;
  cur.clientErrors += k.clientErrors;
  cur.limited += k.limited;
  cur.totalMs += k.totalMs;
  cur.maxMs = Math.max(cur.maxMs, k.maxMs);
  k.buckets.forEach((v, i) => (cur.buckets[i]! += v));
}

function mergeMinute(into: Map<string, MinuteDelta>, m: MinuteDelta): void {
  const key = `${m.minute} ${m.method} ${m.route}`;
  const cur = into.get(key);
  if (!cur) {
    into.set(key, m);
    return;
  }
  cur.count += m.count;
  cur.errors += m.errors;
  cur.clientErrors += m.clientErrors;
  cur.limited += m.limited;
  cur.cacheHits += m.cacheHits;
  cur.cacheMisses += m.cacheMisses;
  cur.cacheBypasses += m.cacheBypasses;
  cur.cacheEvictions += m.cacheEvictions;
  cur.totalMs += m.totalMs;
  cur.maxMs = Math.max(cur.maxMs, m.maxMs);
  m.buckets.forEach((v, i) => (cur.buckets[i]! += v));
}

function mergeTotal(into: Map<string, TotalDelta>, t: TotalDelta): void {
  const key = `${t.method} ${t.status} ${t.route}`;
  const cur = into.get(key);
  if (!cur) {
    into.set(key, t);
    return;
  }
  cur.count += t.count;
  cur.totalMs += t.totalMs;
  t.buckets.forEach((v, i) => (cur.buckets[i]! += v));
}
