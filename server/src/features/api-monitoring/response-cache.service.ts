import { LRUCache } from 'lru-cache';

/** A cached list answer and the list state (ETag) it was read at. */
export interface CachedAnswer {
  etag: string;
  /** The answer's bytes as first sent: a hit writes them as they are (no encoding per hit). */
  body: Buffer;
  headers: Record<string, string>;
}

/** The answer headers that travel with a cached body (paging and the list's totals). */
export const CACHED_HEADERS = [
  'content-type',
  'x-total-count',
  'x-total-capped',
  'x-next-cursor',
  'x-prev-cursor',
] as const;

/** A ceiling on the bytes held, whatever the entry count (whole lists can be large). */
export const CACHE_MAX_BYTES = 64 * 1024 * 1024;

/**
 * This process's response cache: at most `maxSize` entries for `ttlSeconds`, least recently used
 * first out. An entry is only served while the list state it was read at is still the current one
 * (the change counters every write raises, shared by every worker), so a write anywhere makes the
 * entries it affects stale at once; Clear empties every worker through the settings' generation.
 */
export class ResponseCache {
  private lru: LRUCache<string, CachedAnswer>;

  constructor(
    maxSize: number,
    private ttlSeconds: number,
    private readonly onEvict: (n: number) => void,
  ) {
    this.lru = this.make(maxSize, ttlSeconds);
  }

  private make(max: number, ttlSeconds: number): LRUCache<string, CachedAnswer> {
    return new LRUCache<string, CachedAnswer>({
      max,
      ttl: ttlSeconds * 1000,
      maxSize: CACHE_MAX_BYTES,
      sizeCalculation: (v) => v.body.length + 256,
      dispose: (_v, _k, reason) => {
        if (reason === 'evict') this.onEvict(1);
      },
    });
  }

  /** New limits: a cache of the new size (the entries are dropped, not counted as evictions). */
  configure(maxSize: number, ttlSeconds: number): void {
    if (maxSize === this.lru.max && ttlSeconds === this.ttlSeconds) return;
    this.ttlSeconds = ttlSeconds;
    this.lru = this.make(maxSize, ttlSeconds);
  }

  /** The answer for `key` if it was read at list state `etag`; a stale entry is dropped. */
  get(key: string, etag: string): CachedAnswer | undefined {
    const e = this.lru.get(key);
    if (!e) return undefined;
    if (e.etag !== etag) {
      this.lru.delete(key);
      return undefined;
    }
    return e;
  }

  set(key: string, answer: CachedAnswer): void {
    this.lru.set(key, answer);
  }

  clear(): void {
    this.lru.clear();
  }

  get size(): number {
    return this.lru.size;
  }
}

/**
 * The cache key: method, path (its route pattern's parameters filled), the query sorted, the principal (and the scope it reads
 * with) and Accept. Never a credential: the principal is the account's id.
 */
export function cacheKey(r: {
  method: string;
  url: string;
  principal: string;
  scope: string;
  accept: string | undefined;
}): string {
  const q = r.url.indexOf('?');
  const path = q < 0 ? r.url : r.url.slice(0, q);
  const params = q < 0 ? [] : [...new URLSearchParams(r.url.slice(q + 1))];
  params.sort(([a, av], [b, bv]) => (a < b ? -1 : a > b ? 1 : av < bv ? -1 : av > bv ? 1 : 0));
  const query = params.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&');
  return `${r.method} ${path}?${query} ${r.principal} ${r.scope} ${r.accept ?? ''}`;
}
