import type { SystemAlert } from '@mailroom/contract/system-alerts';
import { type Kysely, sql } from 'kysely';
import type { Locks } from '../../db/locks.ts';
import type { Database } from '../../db/schema.ts';
import type { ServiceControl } from '../../host/service-control.ts';
import { toAlert } from './alerts.service.ts';
import type { MetricsSource } from './metrics-source.ts';
import { readSettingValues, settingNumber } from './system-settings.service.ts';

type Db = Kysely<Database>;

/** A condition that holds now; `key` identifies it so it is raised once and resolved when over. */
export interface Condition {
  key: string;
  type: string;
  severity: SystemAlert['severity'];
  title: string;
  message: string;
}

export interface AlertInputs {
  metrics?: MetricsSource | undefined;
  services?: ServiceControl | undefined;
  /** Messages waiting in the mail queue, or null when it cannot be read. */
  queueSize?: () => Promise<number | null>;
}

export type AlertChange = { event: 'alert.raised' | 'alert.resolved'; alert: SystemAlert };

function threshold(
  key: string,
  label: string,
  value: number | undefined,
  warning: number,
  critical: number,
): Condition | null {
  if (value === undefined || !Number.isFinite(value)) return null;
  const severity = value >= critical ? 'critical' : value >= warning ? 'warning' : null;
  if (!severity) return null;
  const limit = severity === 'critical' ? critical : warning;
  return {
    // The severity is part of the key: a warning that turns critical is a new alert.
    key: `${key}:${severity}`,
    type: key,
    severity,
    title: `High ${label} usage`,
    message: `${label} usage is ${value.toFixed(1)}% (${severity} threshold ${limit}%).`,
  };
}

/** The certificates table belongs to the SSL area; read it only if it exists, whatever its shape. */
async function certificateConditions(db: Db, days: number): Promise<Condition[]> {
  let rows: Record<string, unknown>[];
  try {
    rows = (await sql<Record<string, unknown>>`select * from certificates`.execute(db)).rows;
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

/** Every condition that holds now. */
export async function currentConditions(db: Db, inputs: AlertInputs): Promise<Condition[]> {
  const s = await readSettingValues(db);
  const out: Condition[] = [];
  const stats = inputs.metrics?.latest();
  for (const c of [
    threshold('cpu', 'CPU', stats?.cpuUsage, settingNumber(s, 'cpuWarning'), settingNumber(s, 'cpuCritical')),
    threshold(
      'memory',
      'Memory',
      stats?.memoryUsage,
      settingNumber(s, 'memoryWarning'),
      settingNumber(s, 'memoryCritical'),
    ),
    threshold(
      'disk',
      'Disk',
      stats?.diskUsage,
      settingNumber(s, 'diskWarning'),
      settingNumber(s, 'diskCritical'),
    ),
  ])
    if (c) out.push(c);

  out.push(...(await certificateConditions(db, settingNumber(s, 'certificateDays'))));

  if (inputs.services) {
    const states = await inputs.services.states().catch(() => []);
    for (const st of states)
      if (st.state === 'failed' || st.state === 'stopped')
        out.push({
          key: `service:${st.name}`,
          type: 'service',
          severity: 'critical',
          title: `Service down: ${st.name}`,
          message: st.detail || `${st.name} is ${st.state}.`,
        });
  }

  const lastBackup = await db
    .selectFrom('system_backups')
    .select(['id', 'name', 'status', 'message'])
    .where('status', 'in', ['completed', 'failed'])
    .orderBy('id', 'desc')
    .executeTakeFirst();
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
  const failed = await db
    .selectFrom('audit_log')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('action', '=', 'auth.login')
    .where('outcome', '=', 'failure')
    .where('at', '>=', since)
    .executeTakeFirst();
  const failedLimit = settingNumber(s, 'failedLogins');
  if (Number(failed?.n ?? 0) > failedLimit)
    out.push({
      key: 'failed-logins',
      type: 'security',
      severity: 'warning',
      title: 'Many failed sign-ins',
      message: `${Number(failed?.n)} failed sign-ins in the last hour (alert above ${failedLimit}).`,
    });
  return out;
}

/**
 * Raises an alert once per condition and resolves it when the condition is over. Runs on every
 * metrics sample and on a timer; one evaluation at a time across every process (a lock).
 */
export class AlertEngine {
  private running: Promise<void> | null = null;
  private again = false;
  private timer: NodeJS.Timeout | null = null;
  private unsubscribe: (() => void) | null = null;

  constructor(
    private readonly db: Db,
    private readonly locks: Locks,
    private readonly inputs: AlertInputs,
    private readonly onChange: (changes: AlertChange[]) => Promise<void>,
    private readonly onError: (err: unknown) => void,
  ) {}

  start(intervalMs = 30_000): void {
    this.unsubscribe = this.inputs.metrics?.subscribe(() => void this.trigger()) ?? null;
    this.timer = setInterval(() => void this.trigger(), intervalMs);
    this.timer.unref();
    void this.trigger();
  }

  async stop(): Promise<void> {
    this.unsubscribe?.();
    if (this.timer) clearInterval(this.timer);
    this.again = false;
    await this.running;
  }

  /** Evaluates now (or right after the evaluation in progress). */
  trigger(): Promise<void> {
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = (async () => {
      do {
        this.again = false;
        try {
          await this.evaluate();
        } catch (err) {
          this.onError(err);
        }
      } while (this.again);
      this.running = null;
    })();
    return this.running;
  }

  async evaluate(): Promise<AlertChange[]> {
    const conditions = await currentConditions(this.db, this.inputs);
    const changes = await this.locks.withLock(
      'system.alerts',
      async () => {
        const now = Date.now();
        const open = await this.db
          .selectFrom('system_alerts')
          .selectAll()
          .where('resolved_at', 'is', null)
          .execute();
        const openKeys = new Set(open.map((a) => a.condition_key));
        const holding = new Set(conditions.map((c) => c.key));
        const out: AlertChange[] = [];
        await this.db.transaction().execute(async (trx) => {
          for (const c of conditions) {
            if (openKeys.has(c.key)) continue;
            const row = await trx
              .insertInto('system_alerts')
              .values({
                type: c.type,
                condition_key: c.key,
                severity: c.severity,
                title: c.title,
                message: c.message,
                raised_at: now,
              })
              .returningAll()
              .executeTakeFirstOrThrow();
            out.push({ event: 'alert.raised', alert: toAlert(row) });
          }
          for (const a of open) {
            if (holding.has(a.condition_key)) continue;
            const row = await trx
              .updateTable('system_alerts')
              .set({ resolved_at: now })
              .where('id', '=', a.id)
              .returningAll()
              .executeTakeFirstOrThrow();
            out.push({ event: 'alert.resolved', alert: toAlert(row) });
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
