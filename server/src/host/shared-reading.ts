/**
 * A reading of the machine (daemon states, which programs are installed, memory and disk) shared by
 * every request of this process: taken at most once per `everyMs` (default one second), concurrent
 * callers share the reading in flight, and a failed reading is not kept. Requests never probe the
 * machine themselves (issue 22 #21): they read what the last reading found.
 */
export class SharedReading<T> {
  private value: { at: number; result: Promise<T> } | null = null;
  private readonly everyMs: number;
  private readonly now: () => number;

  constructor(
    private readonly read: () => Promise<T>,
    opts: { everyMs?: number; now?: () => number } = {},
  ) {
    this.everyMs = opts.everyMs ?? 1000;
    this.now = opts.now ?? Date.now;
  }

  get(): Promise<T> {
    const at = this.now();
    const hit = this.value;
    if (hit && at - hit.at < this.everyMs) return hit.result;
    const result = this.read();
    const entry = { at, result };
    this.value = entry;
    // A failed reading is not kept: the next caller tries again.
    result.catch(() => {
      if (this.value === entry) this.value = null;
    });
    return result;
  }

  /** Forgets the last reading (after an action that changes it: a start, stop or restart). */
  invalidate(): void {
    this.value = null;
  }
}

const byKey = new Map<string, SharedReading<unknown>>();

/** One SharedReading per key in this process (e.g. `which:rspamd`, `daemons:<host root>`). */
export function sharedReading<T>(key: string, read: () => Promise<T>, everyMs = 1000): SharedReading<T> {
  let r = byKey.get(key) as SharedReading<T> | undefined;
  if (!r) {
    r = new SharedReading(read, { everyMs });
    byKey.set(key, r);
  }
  return r;
}
