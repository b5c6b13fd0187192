import type { JobEvent, NotificationEvent } from '@mailroom/contract/jobs';
import { MAIL_SAVE_EVENT, type MailSaveProgress } from '@mailroom/contract/mail';
import type { EventRelay } from '../../host/cluster-events.ts';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { notificationsSince } from './notification.repository.ts';

export type ServerEvent =
  | { type: 'job'; data: JobEvent }
  | { type: 'notification'; data: NotificationEvent }
  | { type: typeof MAIL_SAVE_EVENT; data: MailSaveProgress };

/** The events sent as they happen, never read back from the database (`EventHub.publish`). */
export type LiveEvent = Extract<ServerEvent, { type: typeof MAIL_SAVE_EVENT }>;

const isLiveEvent = (e: unknown): e is LiveEvent =>
  typeof e === 'object' && e !== null && (e as { type?: unknown }).type === MAIL_SAVE_EVENT;
export type Subscriber = (e: ServerEvent) => void;

/** Where job changes come from: this process's runner (at once) and the jobs table (polled). */
export interface JobFeed {
  onChange(listener: (c: { job: JobEvent; version: number }) => void): () => void;
  /** Jobs still going or changed since `sinceMs`, with their versions. */
  recent(sinceMs: number): Promise<{ job: JobEvent; version: number }[]>;
}

export interface HubTuning {
  /** How often the database is read while someone listens. Default 1 s. */
  pollMs?: number;
  /** Overlap of each read (covers clock skew between machines and late commits). Default 5 s. */
  windowMs?: number;
}

/**
 * Fans job progress and notifications out to this process's event streams. Changes of jobs run
 * here arrive at once; a job run by another process (or machine) and every notification are
 * read from the database while at least one stream is open. A job is sent when its version moves
 * past the last one sent, so the two sources never send an older state after a newer one.
 */
export class EventHub {
  private readonly subscribers = new Set<Subscriber>();
  private readonly jobVersions = new Map<number, { version: number; seen: number }>();
  private readonly sentNotifications = new Map<number, number>();
  private timer: NodeJS.Timeout | null = null;
  private polling = false;
  private readonly pollMs: number;
  private readonly windowMs: number;
  private readonly stopFeed: () => void;

  private readonly relay: EventRelay | null;

  /**
   * `relay`: how a live event published here reaches the other processes' streams (the cluster's
   * workers, host/cluster-events.ts); made with a deliver function this hub's `deliver`.
   */
  constructor(
    private readonly db: Kysely<Database>,
    private readonly jobs: JobFeed,
    tuning: HubTuning = {},
    relay?: (deliver: (e: unknown) => void) => EventRelay,
  ) {
    this.pollMs = tuning.pollMs ?? 1000;
    this.windowMs = tuning.windowMs ?? 5000;
    this.stopFeed = jobs.onChange((c) => this.offerJob(c.job, c.version));
    this.relay = relay?.((e) => (isLiveEvent(e) ? this.send(e) : undefined)) ?? null;
  }

  /** Sends a live event to this process's streams at once, and through the relay to the others'. */
  publish(e: LiveEvent): void {
    this.send(e);
    this.relay?.send(e);
  }

  get listeners(): number {
    return this.subscribers.size;
  }

  subscribe(s: Subscriber): () => void {
    this.subscribers.add(s);
    if (!this.timer) {
      this.timer = setInterval(() => void this.poll(), this.pollMs);
      this.timer.unref();
    }
    return () => {
      this.subscribers.delete(s);
      if (this.subscribers.size === 0 && this.timer) {
        clearInterval(this.timer);
        this.timer = null;
      }
    };
  }

  /** The jobs still going, for a stream that just opened. */
  async liveJobs(): Promise<JobEvent[]> {
    const rows = await this.jobs.recent(Date.now());
    return rows.filter((r) => r.job.state === 'queued' || r.job.state === 'running').map((r) => r.job);
  }

  close(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.subscribers.clear();
    this.stopFeed();
    this.relay?.close();
  }

  private offerJob(job: JobEvent, version: number): void {
    const last = this.jobVersions.get(job.id);
    if (last && last.version >= version) {
      last.seen = Date.now();
      return;
    }
    this.jobVersions.set(job.id, { version, seen: Date.now() });
    this.send({ type: 'job', data: job });
  }

  private send(e: ServerEvent): void {
    for (const s of this.subscribers) s(e);
  }

  private async poll(): Promise<void> {
    if (this.polling) return;
    this.polling = true;
    try {
      const since = Date.now() - this.windowMs;
      for (const c of await this.jobs.recent(since)) this.offerJob(c.job, c.version);
      for (const n of await notificationsSince(this.db, since)) {
        if (this.sentNotifications.has(n.id)) continue;
        this.sentNotifications.set(n.id, Date.now());
        this.send({ type: 'notification', data: n });
      }
      // Forget what left the window (twice over), so the maps stay small.
      const old = Date.now() - 2 * this.windowMs - this.pollMs;
      for (const [id, at] of this.sentNotifications) if (at < old) this.sentNotifications.delete(id);
      for (const [id, v] of this.jobVersions) if (v.seen < old) this.jobVersions.delete(id);
    } catch {
      /* the next poll tries again */
    } finally {
      this.polling = false;
    }
  }
}
