import type { Kysely } from 'kysely';
import type { Leadership, Locks } from '../../../db/locks.ts';
import type { Database } from '../../../db/schema.ts';
import {
  conditionRaised,
  escalateAlert,
  insertAlert,
  resolveAlert,
  unresolvedAlerts,
} from './alert.repository.ts';
import { type AlertInputs, currentConditions } from './alert-conditions.service.ts';
import { AlertTracker, type OpenAlert } from './alert-tracker.service.ts';
import type { AlertChange } from './alert.types.ts';

export type { AlertInputs } from './alert-conditions.service.ts';
export type { AlertChange, AlertSource, Condition } from './alert.types.ts';

type Db = Kysely<Database>;

/**
 * Raises an alert once per condition that held long enough, escalates it when it gets worse and
 * resolves it when the condition has been over long enough. Runs on every metrics sample and on a
 * timer, in one process only (the `system.alerts.leader` lock): the timing is kept in memory, and
 * two processes whose samples differ would otherwise raise and resolve in turn.
 */
export class AlertEngine {
  private running: Promise<void> | null = null;
  private again = false;
  private timer: NodeJS.Timeout | null = null;
  private unsubscribe: (() => void) | null = null;
  private leadership: Leadership | null = null;
  private leaderTried = 0;
  private stopped = false;
  readonly tracker: AlertTracker;
  private readonly clock: () => number;

  constructor(
    private readonly db: Db,
    private readonly locks: Locks,
    private readonly inputs: AlertInputs,
    private readonly onChange: (changes: AlertChange[]) => Promise<void>,
    private readonly onError: (err: unknown) => void,
  ) {
    this.tracker = new AlertTracker(inputs.timing);
    this.clock = inputs.clock ?? Date.now;
  }

  start(intervalMs = 30_000): void {
    this.unsubscribe = this.inputs.metrics?.subscribe(() => void this.trigger()) ?? null;
    this.timer = setInterval(() => void this.trigger(), intervalMs);
    this.timer.unref();
    void this.trigger();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.unsubscribe?.();
    if (this.timer) clearInterval(this.timer);
    this.again = false;
    await this.running;
    await this.leadership?.release().catch(() => undefined);
    this.leadership = null;
  }

  /** Evaluates now (or right after the evaluation in progress), if this process leads. */
  trigger(): Promise<void> {
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = (async () => {
      do {
        this.again = false;
        try {
          if (await this.lead()) await this.evaluate();
        } catch (err) {
          this.onError(err);
        }
      } while (this.again && !this.stopped);
      this.running = null;
    })();
    return this.running;
  }

  /** Whether this process evaluates; another process's leadership is asked again every 30 s. */
  private async lead(): Promise<boolean> {
    if (this.stopped) return false;
    if (this.leadership && !this.leadership.signal.aborted) return true;
    if (this.leadership) {
      this.leadership = null;
      this.tracker.reset();
    }
    const now = Date.now();
    if (now - this.leaderTried < 30_000 && this.leaderTried) return false;
    this.leaderTried = now;
    this.leadership = await this.locks.tryLeader('system.alerts.leader');
    return this.leadership !== null;
  }

  async evaluate(): Promise<AlertChange[]> {
    const open: OpenAlert[] = await unresolvedAlerts(this.db);
    const openSeverity = new Map(open.map((a) => [a.key, a.severity]));
    const evaluation = await currentConditions(this.db, this.inputs, (key) =>
      this.tracker.level(key, openSeverity.get(key)),
    );
    const decisions = this.tracker.decide(this.clock(), evaluation, open);
    if (!decisions.length) return [];
    const changes = await this.locks.withLock(
      'system.alerts',
      async () => {
        const now = Date.now();
        const out: AlertChange[] = [];
        await this.db.transaction().execute(async (trx) => {
          for (const d of decisions) {
            if (d.kind === 'raise') {
              const c = d.condition;
              // Another process may have raised it meanwhile (a leadership change): once only.
              if (await conditionRaised(trx, c.key)) continue;
              const alert = await insertAlert(trx, { ...c, severity: d.severity, at: now });
              out.push({ event: 'alert.raised', alert });
            } else if (d.kind === 'escalate') {
              const alert = await escalateAlert(trx, d.id, {
                severity: d.severity,
                title: d.condition.title,
                message: d.condition.message,
              });
              if (alert) out.push({ event: 'alert.raised', alert, escalated: true });
            } else {
              const alert = await resolveAlert(trx, d.id, now);
              if (alert) out.push({ event: 'alert.resolved', alert });
            }
          }
        });
        return out;
      },
      { waitMs: 10_000 },
    );
    if (changes.length) await this.onChange(changes);
    return changes;
  }
}
