import { z } from 'zod';
import { defineRoute } from './route.ts';
import { queryInt } from './validators.ts';

export const AlertSeverity = z.enum(['critical', 'warning', 'info']);
/** Spec §3.3 Alert, raised by the server from thresholds (CPU, memory, disk, certificates, ...). */
export const SystemAlert = z.object({
  id: z.number(),
  type: z.string(),
  severity: AlertSeverity,
  title: z.string(),
  message: z.string(),
  timestamp: z.string(),
  /** Set when the condition is over; an alert stays listed until acknowledged. */
  resolvedAt: z.string().nullable(),
  acknowledged: z.boolean(),
  acknowledgedBy: z.string().nullable(),
  acknowledgedAt: z.string().nullable(),
});
export type SystemAlert = z.infer<typeof SystemAlert>;

export const AlertsQuery = z.object({
  /**
   * `active`: not acknowledged (the default); `open`: not resolved and not acknowledged (what is
   * wrong now: /monitoring's Active Alerts); `all`: the latest 500 of every state.
   */
  state: z.enum(['active', 'open', 'all']).optional(),
});
export const AlertsAnswer = z.object({ alerts: z.array(SystemAlert) });
export const AlertIdParams = z.object({ id: queryInt(1, undefined, 'Alert id') });
export const AcknowledgedAnswer = z.object({ acknowledged: z.number() });

export const systemAlertRoutes = {
  list: defineRoute({
    method: 'GET',
    path: 'system/alerts',
    summary: 'Alerts raised from thresholds',
    tags: ['system'],
    query: AlertsQuery,
    response: AlertsAnswer,
  }),
  acknowledge: defineRoute({
    method: 'POST',
    path: 'system/alerts/:id/acknowledge',
    summary: 'Acknowledge one alert',
    tags: ['system'],
    params: AlertIdParams,
    response: AcknowledgedAnswer,
    audit: 'system.alert.acknowledge',
  }),
  acknowledgeAll: defineRoute({
    method: 'POST',
    path: 'system/alerts/acknowledge-all',
    summary: 'Acknowledge every open alert',
    tags: ['system'],
    response: AcknowledgedAnswer,
    audit: 'system.alert.acknowledge-all',
  }),
};
