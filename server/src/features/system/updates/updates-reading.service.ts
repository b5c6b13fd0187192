import type { UpdatesAnswer } from '@mailroom/contract/system-admin';
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.ts';
import {
  claimRefresh,
  readStoredReading,
  releaseRefresh,
  saveReading,
} from './updates-reading.repository.ts';

type Db = Kysely<Database>;
type Reading = Pick<UpdatesAnswer, 'updates' | 'checkedAt'>;

export interface UpdatesReadingOptions {
  /** A reading older than this is refreshed in the background at the next read. */
  maxAgeMs?: number;
  /** A refresh not finished after this long (its process died) may be taken over. */
  leaseMs?: number;
  /** How often the reading is kept warm without anybody reading it. */
  warmEveryMs?: number;
  now?: () => number;
  onError?: (err: unknown) => void;
}

/**
 * The upgradable packages, read from apt (seconds: it lists and describes each package) once for
 * every worker and instance and kept in the database (issue 22 #18). A read answers the stored
 * reading at once, with its age (`readAt`), and says `refreshing` when it is out of date (older
 * than `maxAgeMs`, or an update job ended since: `version`) while one process reads apt again in
 * the background; a read never waits for apt. Warmed at start and kept warm on a timer.
 */
export class UpdatesReading {
  private inFlight: Promise<void> | null = null;
  /** Aborts apt when the server stops (the lease is given back, not left for a successor to wait out). */
  private readonly stopping = new AbortController();
  private timer: NodeJS.Timeout | null = null;
  private readonly maxAgeMs: number;
  private readonly leaseMs: number;
  private readonly warmEveryMs: number;
  private readonly now: () => number;

  constructor(
    private readonly db: Db,
    private readonly read: (signal: AbortSignal) => Promise<Reading>,
    private readonly version: () => Promise<string>,
    private readonly opts: UpdatesReadingOptions = {},
  ) {
    this.maxAgeMs = opts.maxAgeMs ?? 60_000;
    this.leaseMs = opts.leaseMs ?? 5 * 60_000;
    this.warmEveryMs = opts.warmEveryMs ?? 10 * 60_000;
    this.now = opts.now ?? Date.now;
  }

  async get(): Promise<UpdatesAnswer> {
    const [row, version] = await Promise.all([readStoredReading(this.db), this.version()]);
    const fresh =
      !!row?.body &&
      row.readAt !== null &&
      row.version === version &&
      this.now() - row.readAt <= this.maxAgeMs;
    if (!fresh) this.refresh(version);
    const body: Reading = row?.body ? (JSON.parse(row.body) as Reading) : { updates: [], checkedAt: null };
    return {
      ...body,
      readAt: row?.body && row.readAt !== null ? new Date(row.readAt).toISOString() : null,
      refreshing: !fresh,
    };
  }

  /** Reads apt again in the background (once per process, and under the lease across processes). */
  refresh(version?: string): void {
    if (this.inFlight || this.stopping.signal.aborted) return;
    this.inFlight = this.refreshNow(version)
      .catch((err: unknown) => {
        // Stopping the server cut apt short: nothing went wrong.
        if (!this.stopping.signal.aborted) this.opts.onError?.(err);
      })
      .finally(() => (this.inFlight = null));
  }

  /** Waits for this process's refresh in progress, if any (tests, shutdown). */
  async settled(): Promise<void> {
    await this.inFlight;
  }

  private async refreshNow(known?: string): Promise<void> {
    const startedAt = this.now();
    if (!(await claimRefresh(this.db, startedAt, this.leaseMs))) return;
    try {
      // The version first: a job that ends while apt is read makes this reading out of date.
      const version = known ?? (await this.version());
      const reading = await this.read(this.stopping.signal);
      await saveReading(this.db, { body: JSON.stringify(reading), version, startedAt });
    } catch (err) {
      await releaseRefresh(this.db, startedAt).catch(() => undefined);
      throw err;
    }
  }

  /** Warms the reading now when it is out of date, then keeps it warm on a timer. */
  start(): void {
    const warm = () => void this.get().catch((err: unknown) => this.opts.onError?.(err));
    warm();
    this.timer = setInterval(warm, this.warmEveryMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.stopping.abort();
    await this.settled();
  }
}
