import { z } from 'zod';
import { DaemonStatus } from './daemons.ts';
import { MetricThresholds } from './system-metrics.ts';

import { defineRoute } from './route.ts';

/**
 * Bytes used and total, and `percent`: the one figure every screen shows (memory: used = total −
 * available; disk: used / (used + available), as df shows it, the blocks kept for root left out).
 */
export const UsedTotal = z.object({ used: z.number(), total: z.number(), percent: z.number() });

/** Why the status is not 'running': one line per cause, the worst first. */
export const StatusReason = z.object({
  severity: z.enum(['critical', 'warning']),
  /** What it concerns: a daemon's name, 'alerts', 'queue', 'disk', 'memory'. */
  source: z.string(),
  message: z.string(),
});
export type StatusReason = z.infer<typeof StatusReason>;

/**
 * Spec §3 system status, reflecting what matters for a mail server (issue 22 #14): 'running' when
 * all is well, 'degraded' on a warning, 'critical' when mail or DNS is down, a critical alert is
 * open, or the disk or memory is past its critical threshold; `reasons` says why.
 */
export const SystemStatus = z.object({
  status: z.enum(['running', 'degraded', 'critical']),
  uptime: z.number(),
  memory: UsedTotal,
  disk: UsedTotal.extend({ available: z.number() }),
  reasons: z.array(StatusReason),
  /** The mail and DNS daemons' states (Postfix, Dovecot, Rspamd, BIND). */
  daemons: z.array(DaemonStatus),
  openCriticalAlerts: z.number(),
  /** Messages waiting in the mail queue; null when it cannot be read. */
  queueSize: z.number().nullable(),
  thresholds: MetricThresholds,
});
export type SystemStatus = z.infer<typeof SystemStatus>;

export const systemRoutes = {
  status: defineRoute({
    method: 'GET',
    path: 'system/status',
    summary: 'Machine status: mail and DNS daemons, open critical alerts, queue, uptime, memory and disk',
    tags: ['system'],
    response: SystemStatus,
  }),
};
