import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.ts';
import type { ServiceControl } from '../../../host/service-control.ts';
import { countAuditSince } from '../../../http/audit-log.repository.ts';
import { lastEndedBackup } from '../backups/backup.repository.ts';
import type { MetricsSource } from '../live/metrics-source.types.ts';
import { alertThresholds, readSettingValues, settingNumber } from '../settings/system-settings.service.ts';
import { expiringCertificates } from '../../ssl/ssl.public.ts';
import { HYSTERESIS_POINTS, RANK } from './alert-tracker.service.ts';
import type { AlertSource, Condition, ConditionTiming, Evaluation, Severity } from './alert.types.ts';

type Db = Kysely<Database>;

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

/**
 * The SSL area's certificates expiring within `days` (the newest of each domain only: a renewed
 * one's old row does not alert). Critical within 3 days or once expired.
 */
async function certificateConditions(db: Db, days: number, now: number): Promise<Condition[]> {
  const out: Condition[] = [];
  for (const c of await expiringCertificates(db, now + (days + 1) * 86_400_000)) {
    const left = Math.floor((c.notAfter - now) / 86_400_000);
    if (left > days) continue;
    const date = new Date(c.notAfter).toISOString().slice(0, 10);
    out.push({
      key: `certificate:${c.domain}`,
      type: 'certificate',
      severity: left <= 3 ? 'critical' : 'warning',
      title: left < 0 ? `Certificate expired: ${c.domain}` : `Certificate expiring: ${c.domain}`,
      message:
        left < 0
          ? `The certificate for ${c.domain} expired on ${date}.`
          : `The certificate for ${c.domain} expires in ${left} day${left === 1 ? '' : 's'} (${date}).`,
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

  out.push(
    ...(await certificateConditions(db, settingNumber(s, 'certificateDays'), (inputs.clock ?? Date.now)())),
  );

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
