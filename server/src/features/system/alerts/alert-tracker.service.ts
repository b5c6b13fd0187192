import type { Condition, ConditionTiming, Evaluation, Severity } from './alert.types.ts';

const MINUTE = 60_000;
/**
 * Per type of condition. A CPU, memory or disk figure must stay over its threshold for two minutes
 * (one busy sample is not an incident) and back under it (less the hysteresis) for two minutes; a
 * daemon must be down a minute (the supervisor restarts a crashed one within seconds); the mail
 * queue must stay long for five minutes (a burst drains by itself). Events that are facts when
 * seen (a failed backup, an expiring certificate, failed sign-ins) raise at once.
 */
export const DEFAULT_TIMING: Record<string, ConditionTiming> = {
  cpu: { raiseAfterMs: 2 * MINUTE, resolveAfterMs: 2 * MINUTE },
  memory: { raiseAfterMs: 2 * MINUTE, resolveAfterMs: 2 * MINUTE },
  disk: { raiseAfterMs: 2 * MINUTE, resolveAfterMs: 2 * MINUTE },
  service: { raiseAfterMs: MINUTE, resolveAfterMs: 0 },
  'mail-queue': { raiseAfterMs: 5 * MINUTE, resolveAfterMs: 2 * MINUTE },
  default: { raiseAfterMs: 0, resolveAfterMs: 0 },
};

/**
 * Hysteresis of the percentage thresholds, in points: a figure that crossed a threshold (alert
 * open or pending) stays over it until it falls this far below it, so a value hovering at the
 * threshold does not raise and resolve in turn.
 */
export const HYSTERESIS_POINTS = 5;

export const RANK: Record<Severity, number> = { info: 0, warning: 1, critical: 2 };
const LEVELS: Severity[] = ['info', 'warning', 'critical'];

export interface OpenAlert {
  id: number;
  key: string;
  type: string;
  severity: Severity;
}

export type Decision =
  | { kind: 'raise'; condition: Condition; severity: Severity }
  | { kind: 'escalate'; id: number; condition: Condition; severity: Severity }
  | { kind: 'resolve'; id: number };

/**
 * Decides, from what holds now and the open alerts, what to raise, escalate and resolve, with a
 * minimum duration on both sides. Pure (the clock is an argument), so the timing is unit-tested
 * with a fake clock. Kept in memory by the one process that evaluates (the leader).
 */
export class AlertTracker {
  /** Per key: since when each severity (and every lower one) has held without a break. */
  private readonly holding = new Map<string, Partial<Record<Severity, number>>>();
  /** Per open alert's key: since when its condition has been over. */
  private readonly over = new Map<string, number>();

  constructor(private readonly timing: Partial<Record<string, ConditionTiming>> = {}) {}

  private timingOf(type: string): ConditionTiming {
    return this.timing[type] ?? DEFAULT_TIMING[type] ?? this.timing.default ?? DEFAULT_TIMING.default!;
  }

  /** The highest severity pending (held, not yet long enough) or open for `key`, for hysteresis. */
  level(key: string, open?: Severity): Severity | undefined {
    const h = this.holding.get(key);
    let best = open;
    for (const l of LEVELS) if (h?.[l] !== undefined && (!best || RANK[l] > RANK[best])) best = l;
    return best;
  }

  decide(now: number, evaluation: Evaluation, open: OpenAlert[]): Decision[] {
    const out: Decision[] = [];
    const openByKey = new Map(open.map((a) => [a.key, a]));
    const seen = new Set<string>();
    for (const c of evaluation.conditions) {
      seen.add(c.key);
      this.over.delete(c.key);
      const since = this.holding.get(c.key) ?? {};
      for (const l of LEVELS) {
        if (RANK[l] <= RANK[c.severity]) since[l] ??= now;
        else delete since[l];
      }
      this.holding.set(c.key, since);
      const wait = this.timingOf(c.type).raiseAfterMs;
      // The highest severity that has held long enough.
      let reached: Severity | null = null;
      for (const l of LEVELS) if (since[l] !== undefined && now - since[l] >= wait) reached = l;
      if (!reached) continue;
      const a = openByKey.get(c.key);
      if (!a) out.push({ kind: 'raise', condition: c, severity: reached });
      else if (RANK[reached] > RANK[a.severity])
        out.push({ kind: 'escalate', id: a.id, condition: c, severity: reached });
    }
    for (const key of [...this.holding.keys()])
      if (!seen.has(key) && !evaluation.unknown.has(key)) this.holding.delete(key);
    for (const a of open) {
      if (seen.has(a.key) || evaluation.unknown.has(a.key)) continue;
      const since = this.over.get(a.key) ?? now;
      this.over.set(a.key, since);
      if (now - since >= this.timingOf(a.type).resolveAfterMs) {
        out.push({ kind: 'resolve', id: a.id });
        this.over.delete(a.key);
      }
    }
    for (const key of [...this.over.keys()]) if (!openByKey.has(key)) this.over.delete(key);
    return out;
  }

  /** Forgets everything (leadership lost: the next leader starts counting afresh). */
  reset(): void {
    this.holding.clear();
    this.over.clear();
  }
}
