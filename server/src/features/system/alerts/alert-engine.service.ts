import type { SystemAlert } from '@mailroom/contract/system-alerts';
import type { Kysely } from 'kysely';
import type { Leadership, Locks } from '../../../db/locks.ts';
import type { Database } from '../../../db/schema.ts';
import type { ServiceControl } from '../../../host/service-control.ts';
import { countAuditSince } from '../../../http/audit-log.repository.ts';
import {
  conditionRaised,
  escalateAlert,
  insertAlert,
  legacyCertificateRows,
  resolveAlert,
  unresolvedAlerts,
} from './alert.repository.ts';
import { lastEndedBackup } from '../backups/backup.repository.ts';
import type { MetricsSource } from '../live/metrics-source.types.ts';
import { alertThresholds, readSettingValues, settingNumber } from '../settings/system-settings.service.ts';

type Db = Kysely<Database>;

type Severity = SystemAlert['severity'];

/** A condition that holds now; `key` identifies it so it is raised once and resolved when over. */
export interface Condition {
  key: string;
  type: string;
  severity: Severity;
  title: string;
  message: string;
}

/** What the sources say now: the conditions that hold, and the keys whose state is not known. */
export interface Evaluation {
  conditions: Condition[];
  /**
   * Keys that are neither holding nor over right now: a daemon Mailroom is starting, stopping or
   * restarting on purpose, or has not started yet. Their alerts are neither raised nor resolved.
   */
  unknown: Set<string>;
}

export interface AlertInputs {
  metrics?: MetricsSource | undefined;
  services?: ServiceControl | undefined;
  /** Messages waiting in the mail queue, or null when it cannot be read. */
  queueSize?: () => Promise<number | null>;
  /** The engine's clock (tests move it); default Date.now. */
  clock?: (() => number) | undefined;
  /** How long each kind of condition must hold, or be over, before it raises or resolves. */
  timing?: Partial<Record<string, ConditionTiming>>;
  /**
   * Conditions other areas report (e.g. web applications failing their health check), registered
   * in app.ts; read at each evaluation. A source that fails is skipped for that evaluation.
   */
  sources?: AlertSource[];
}

/** Another area's conditions that hold now. */
export type AlertSource = () => Promise<Condition[]>;

/**
 * An alert changes: raised (new), escalated (an open alert whose condition got worse: warning to
 * critical; sent as `alert.raised` again, with the new severity), resolved.
 */
export type AlertChange = {
  event: 'alert.raised' | 'alert.resolved';
  alert: SystemAlert;
  escalated?: boolean;
};

/** Milliseconds a condition must hold before it raises, and be over before its alert resolves. */
export interface ConditionTiming {
  raiseAfterMs: number;
  resolveAfterMs: number;
}

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

const RANK: Record<Severity, number> = { info: 0, warning: 1, critical: 2 };
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

/**
 * A percentage threshold with hysteresis: `level` is where this figure already is (alert open or
 * pending), and it stays there until the value falls HYSTERESIS_POINTS below that threshold.
 */
export function threshold(
  type: string,
  label: string,
  value: number | undefined,
  warning: number,
  critical: number,
  level?: Severity,
): Condition | null {
  if (value === undefined || !Number.isFinite(value)) return null;
  const rank = level ? RANK[level] : 0;
  const critAt = rank >= RANK.critical ? critical - HYSTERESIS_POINTS : critical;
  const warnAt = rank >= RANK.warning ? warning - HYSTERESIS_POINTS : warning;
  const severity = value >= critAt ? 'critical' : value >= warnAt ? 'warning' : null;
  if (!severity) return null;
  const limit = severity === 'critical' ? critical : warning;
  return {
    // One alert per figure: a warning that turns critical escalates the same alert.
    key: type,
    type,
    severity,
    title: `High ${label} usage`,
    message: `${label} usage is ${value.toFixed(1)}% (${severity} threshold ${limit}%).`,
  };
}

/** The certificates table belongs to the SSL area; read it only if it exists, whatever its shape. */
async function certificateConditions(db: Db, days: number): Promise<Condition[]> {
  let rows: Record<string, unknown>[];
  try {
    rows = await legacyCertificateRows(db);
  } catch {
    return [];
  }
  const out: Condition[] = [];
  const now = Date.now();
  for (const r of rows) {
    const rawExpiry = r.not_after ?? r.expires_at ?? r.valid_to ?? r.expiry;
    const rawName = r.domain ?? r.common_name ?? r.name ?? r.id;
    const name = typeof rawName === 'string' || typeof rawName === 'number' ? String(rawName) : 'certificate';
    const expiry =
      typeof rawExpiry === 'number'
        ? rawExpiry
        : typeof rawExpiry === 'string'
          ? Date.parse(rawExpiry)
          : rawExpiry instanceof Date
            ? rawExpiry.getTime()
            : NaN;
    if (!Number.isFinite(expiry)) continue;
    const left = Math.floor((expiry - now) / 86_400_000);
    if (left > days) continue;
    out.push({
      key: `certificate:${name}`,
      type: 'certificate',
      severity: left <= 3 ? 'critical' : 'warning',
      title: left < 0 ? `Certificate expired: ${name}` : `Certificate expiring: ${name}`,
      message:
        left < 0
          ? `The certificate for ${name} expired on ${new Date(expiry).toISOString().slice(0, 10)}.`
          : `The certificate for ${name} expires in ${left} day${left === 1 ? '' : 's'} (${new Date(expiry).toISOString().slice(0, 10)}).`,
    });
  }
  return out;
}

/**
 * Every condition that holds now. `level(key)` says where a figure already is (open or pending
 * alert), for the thresholds' hysteresis.
 */
export async function currentConditions(
  db: Db,
  inputs: AlertInputs,
  level: (key: string) => Severity | undefined = () => undefined,
): Promise<Evaluation> {
  const s = await readSettingValues(db);
  const out: Condition[] = [];
  const unknown = new Set<string>();
  const stats = inputs.metrics?.latest();
  const t = alertThresholds(s);
  for (const c of [
    threshold('cpu', 'CPU', stats?.cpuUsage, t.cpu.warning, t.cpu.critical, level('cpu')),
    threshold('memory', 'Memory', stats?.memoryUsage, t.memory.warning, t.memory.critical, level('memory')),
    threshold('disk', 'Disk', stats?.diskUsage, t.disk.warning, t.disk.critical, level('disk')),
  ])
    if (c) out.push(c);

  out.push(...(await certificateConditions(db, settingNumber(s, 'certificateDays'))));

  if (inputs.services) {
    const states = await inputs.services.states().catch(() => []);
    for (const st of states) {
      // Starting, stopping or restarting on Mailroom's own request, or not started yet: not down.
      if (st.pending) unknown.add(`service:${st.name}`);
      else if (st.state === 'failed' || st.state === 'stopped')
        out.push({
          key: `service:${st.name}`,
          type: 'service',
          severity: 'critical',
          title: `Service down: ${st.name}`,
          message: st.detail || `${st.name} is ${st.state}.`,
        });
    }
  }

  for (const source of inputs.sources ?? []) out.push(...(await source().catch(() => [])));

  const lastBackup = await lastEndedBackup(db);
  if (lastBackup?.status === 'failed')
    out.push({
      key: 'backup',
      type: 'backup',
      severity: 'critical',
      title: 'Backup failed',
      message: `The latest backup (${lastBackup.name}) failed: ${lastBackup.message ?? 'no reason recorded'}.`,
    });

  const queue = inputs.queueSize ? await inputs.queueSize().catch(() => null) : null;
  const queueLimit = settingNumber(s, 'mailQueueSize');
  if (queue != null && queue > queueLimit)
    out.push({
      key: 'mail-queue',
      type: 'mail-queue',
      severity: 'warning',
      title: 'Mail queue is growing',
      message: `${queue} messages are waiting in the mail queue (alert above ${queueLimit}).`,
    });

  const since = new Date(Date.now() - 3_600_000).toISOString();
  const failed = await countAuditSince(db, 'auth.login', 'failure', since);
  const failedLimit = settingNumber(s, 'failedLogins');
  if (failed > failedLimit)
    out.push({
      key: 'failed-logins',
      type: 'security',
      severity: 'warning',
      title: 'Many failed sign-ins',
      message: `${failed} failed sign-ins in the last hour (alert above ${failedLimit}).`,
    });
  return { conditions: out, unknown };
}

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
