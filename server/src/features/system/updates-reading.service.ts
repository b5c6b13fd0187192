/**
 * One shared reading of something slow (apt listing and describing the upgradable packages takes
 * seconds, more on a loaded machine): every viewer gets the last reading at once; once it is older
 * than `maxAgeMs` a fresh one starts beside it and replaces it when done. Only the first reading
 * (and the first after `invalidate`) is waited for.
 */
export class SharedReading<T> {
  private last: { at: number; value: T } | null = null;
  private inFlight: Promise<T> | null = null;
  private seen: unknown = undefined;

  /**
   * `version`, when given, is asked first on every get (a cheap query): when it changed since the
   * last reading (a check or install finished, maybe in another process), that reading is dropped.
   */
  constructor(
    private readonly read: () => Promise<T>,
    private readonly maxAgeMs: number,
    private readonly now: () => number = Date.now,
    private readonly version?: () => Promise<unknown>,
  ) {}

  async get(): Promise<T> {
    if (this.version) {
      const v = await this.version();
      if (v !== this.seen) {
        this.seen = v;
        this.invalidate();
      }
    }
    if (!this.last) return this.refresh();
    if (this.now() - this.last.at > this.maxAgeMs) this.refresh().catch(() => undefined);
    return this.last.value;
  }

  /** What the last reading says is out of date (an install, a check): the next get waits for a new one. */
  invalidate(): void {
    this.last = null;
    this.inFlight = null;
  }

  private refresh(): Promise<T> {
    if (this.inFlight) return this.inFlight;
    const started = this.now();
    const p: Promise<T> = this.read().then((value) => {
      // A reading that began before an invalidate is not kept.
      if (this.inFlight === p) this.last = { at: started, value };
      return value;
    });
    const clear = () => {
      if (this.inFlight === p) this.inFlight = null;
    };
    p.then(clear, clear);
    this.inFlight = p;
    return p;
  }
}
