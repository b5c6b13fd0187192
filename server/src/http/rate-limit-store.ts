/** What the shared counter answers after adding hits: the window's total and when it began. */
export interface SharedCount {
  hits: number;
  windowStart: number;
}

/** Adds `delta` hits to a key's shared counter (a new window when the old one ended). */
export type AddHits = (key: string, delta: number, windowMs: number, now: number) => Promise<SharedCount>;

type IncrCallback = (error: Error | null, result?: { current: number; ttl: number }) => void;

interface Entry {
  /** The shared total when last read, this process's hits in it included. */
  shared: number;
  windowStart: number;
  syncedAt: number;
  /** Hits this process counted since, not yet added to the shared counter. */
  pending: number;
}

/** How long a read of the shared counter stands in for it while the key is far below its limit. */
export const SHARED_SYNC_MS = 250;

/**
 * Fixed-window counting against a counter shared by every instance (the database), without a
 * database write per request. A key far below its limit (at most half of it, counting what this
 * process has not yet added) is counted in memory for up to SHARED_SYNC_MS after its last read of
 * the shared counter; any other request adds the hits counted meanwhile plus its own to the
 * shared counter and is judged by the total that answers. So a client near or over its limit is
 * always judged by the exact shared total, while a busy one far below it costs about one write
 * per key every SHARED_SYNC_MS instead of one per request (the 50-client load serialised every
 * request on the one row of its address and of its session, two commits each).
 */
export class BatchedCounter {
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly add: AddHits,
    private readonly clock: () => number = Date.now,
  ) {}

  incr(key: string, callback: IncrCallback, windowMs = 60_000, max = Infinity): void {
    const now = this.clock();
    const e = this.entries.get(key);
    if (
      e &&
      now - e.syncedAt < SHARED_SYNC_MS &&
      e.windowStart + windowMs > now &&
      e.shared + e.pending + 1 <= max / 2
    ) {
      e.pending++;
      callback(null, { current: e.shared + e.pending, ttl: e.windowStart + windowMs - now });
      return;
    }
    const delta = (e?.pending ?? 0) + 1;
    if (e) e.pending = 0;
    this.add(key, delta, windowMs, now).then(
      (r) => {
        const entry = this.entries.get(key);
        if (entry) {
          entry.shared = r.hits;
          entry.windowStart = r.windowStart;
          entry.syncedAt = now;
        } else {
          this.prune(now, windowMs);
          this.entries.set(key, { shared: r.hits, windowStart: r.windowStart, syncedAt: now, pending: 0 });
        }
        callback(null, { current: r.hits, ttl: Math.max(0, r.windowStart + windowMs - now) });
      },
      (err: Error) => {
        // The hits are given back, to be added by the next request.
        const entry = this.entries.get(key);
        if (entry) entry.pending += delta - 1;
        callback(err);
      },
    );
  }

  /** Keys whose window ended are forgotten (their unsent hits belong to a window that is over). */
  private prune(now: number, windowMs: number): void {
    if (this.entries.size < 10_000) return;
    for (const [k, v] of this.entries) if (v.windowStart + windowMs <= now) this.entries.delete(k);
  }
}
