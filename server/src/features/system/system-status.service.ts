import os from 'node:os';
import { DAEMON_PENDING_LABELS } from '@mailroom/contract/daemons';
import type { StatusReason, SystemStatus } from '@mailroom/contract/system';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { diskPercent, readMemoryAndDisk } from '../../host/proc-stats.ts';
import { sharedReading } from '../../host/shared-reading.ts';
import type { DaemonState } from '../../host/service-control.ts';
import { openCriticalAlerts } from './alerts/alert.service.ts';
import { alertThresholds, readSettingValues, settingNumber } from './settings/system-settings.service.ts';

const LABEL: Record<DaemonState['name'], string> = {
  postfix: 'Postfix',
  dovecot: 'Dovecot',
  rspamd: 'Rspamd',
  named: 'BIND',
};
/** What each daemon's absence means for the mail server, in the reason line. */
const ROLE: Record<DaemonState['name'], string> = {
  postfix: 'mail is neither received nor sent',
  dovecot: 'mailboxes cannot be read and local delivery waits',
  rspamd: 'spam filtering and DKIM signing are off',
  named: "the server's zones are not answered",
};

export interface StatusSources {
  dataDir: string;
  /** The mail and DNS daemons' states (the supervisor's or systemd's own knowledge). */
  daemons: () => Promise<DaemonState[]>;
  /** Messages in the mail queue (a shared, cached reading), null when unreadable. */
  queueSize: () => Promise<number | null>;
}

const round1 = (n: number) => Math.round(n * 10) / 10;

/**
 * The dashboard's status (issue 22 #14): the mail and DNS daemons, open critical alerts, the mail
 * queue, disk and memory, with one reason per problem. Memory and disk are read as the metrics
 * collector reads them (/proc/meminfo's MemAvailable, statfs of the data folder), so every screen
 * shows the same figures, judged by the same thresholds as the alerts.
 */
export async function readMachineStatus(db: Kysely<Database>, src: StatusSources): Promise<SystemStatus> {
  const [sample, settings, daemons, critical, queueSize] = await Promise.all([
    // Read at most once a second, whatever the number of requests.
    sharedReading(`memory-disk:${src.dataDir}`, () => readMemoryAndDisk(src.dataDir)).get(),
    readSettingValues(db),
    src.daemons().catch((): DaemonState[] => []),
    openCriticalAlerts(db),
    src.queueSize().catch(() => null),
  ]);
  const thresholds = alertThresholds(settings);
  const memUsed = Math.max(0, sample.mem.total - sample.mem.available);
  const memory = {
    used: memUsed,
    total: sample.mem.total,
    percent: sample.mem.total ? round1((100 * memUsed) / sample.mem.total) : 0,
  };
  const disk = { ...sample.disk, percent: round1(diskPercent(sample.disk)) };

  const reasons: StatusReason[] = [];
  for (const d of daemons) {
    const label = LABEL[d.name];
    if (d.state === 'failed')
      reasons.push({
        severity: 'critical',
        source: d.name,
        message: `${label} has failed: ${ROLE[d.name]}. ${d.detail}`,
      });
    else if (d.state === 'stopped' && d.pending)
      reasons.push({
        severity: 'warning',
        source: d.name,
        message: `${label} is ${DAEMON_PENDING_LABELS[d.pending].toLowerCase()}. ${d.detail}`,
      });
    else if (d.state === 'stopped')
      reasons.push({
        severity: 'critical',
        source: d.name,
        message: `${label} is stopped: ${ROLE[d.name]}. ${d.detail}`,
      });
  }
  // A daemon's own line already says it is down; other critical alerts are named here.
  const others = critical.filter((a) => a.type !== 'service');
  if (others.length)
    reasons.push({
      severity: 'critical',
      source: 'alerts',
      message: `${others.length} open critical alert${others.length === 1 ? '' : 's'}: ${others
        .slice(0, 3)
        .map((a) => a.title)
        .join('; ')}${others.length > 3 ? '; …' : ''}.`,
    });
  const queueLimit = settingNumber(settings, 'mailQueueSize');
  if (queueSize !== null && queueSize > queueLimit)
    reasons.push({
      severity: 'warning',
      source: 'queue',
      message: `${queueSize} messages are waiting in the mail queue (alert above ${queueLimit}).`,
    });
  for (const [source, label, pct, t] of [
    ['disk', 'Disk', disk.percent, thresholds.disk],
    ['memory', 'Memory', memory.percent, thresholds.memory],
  ] as const) {
    if (pct >= t.critical)
      reasons.push({
        severity: 'critical',
        source,
        message: `${label} usage is ${pct.toFixed(1)}% (critical threshold ${t.critical}%).`,
      });
    else if (pct >= t.warning)
      reasons.push({
        severity: 'warning',
        source,
        message: `${label} usage is ${pct.toFixed(1)}% (warning threshold ${t.warning}%).`,
      });
  }
  reasons.sort((a, b) => (a.severity === b.severity ? 0 : a.severity === 'critical' ? -1 : 1));
  const status = reasons.some((r) => r.severity === 'critical')
    ? 'critical'
    : reasons.length
      ? 'degraded'
      : 'running';
  return {
    status,
    uptime: Math.floor(os.uptime()),
    memory,
    disk,
    reasons,
    daemons: daemons.map(({ name, state, pid, since, detail }) => ({ name, state, pid, since, detail })),
    openCriticalAlerts: critical.length,
    queueSize,
    thresholds,
  };
}
