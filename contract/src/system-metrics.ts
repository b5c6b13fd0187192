import { z } from 'zod';
import { defineRoute } from './route.ts';

/**
 * The machine's live figures (spec §3.3 Stats), sampled by the server's one collector. Shared by
 * /system, /system/monitoring and /monitoring; pushed as `metrics` events on /api/events.
 */
export const SystemStats = z.object({
  sampledAt: z.string(),
  uptime: z.number(),
  loadAverage: z.tuple([z.number(), z.number(), z.number()]),
  cpuUsage: z.number(),
  memoryUsage: z.number(),
  diskUsage: z.number(),
  networkIn: z.number(),
  networkOut: z.number(),
  activeConnections: z.number(),
  totalProcesses: z.number(),
  runningServices: z.number(),
  totalServices: z.number(),
});
export type SystemStats = z.infer<typeof SystemStats>;

export const SeriesPoint = z.object({ timestamp: z.string(), value: z.number() });
export type SeriesPoint = z.infer<typeof SeriesPoint>;

/** Spec §3.3 performance data: 60 points, one per minute. */
export const PerformanceSeries = z.object({
  cpu: z.array(SeriesPoint),
  memory: z.array(SeriesPoint),
  disk: z.array(SeriesPoint),
  networkIn: z.array(SeriesPoint),
  networkOut: z.array(SeriesPoint),
  load: z.array(SeriesPoint),
});
export type PerformanceSeries = z.infer<typeof PerformanceSeries>;

/** A figure's thresholds (percent): warning at or above the first, critical at or above the second. */
export const Threshold = z.object({ warning: z.number(), critical: z.number() });
/**
 * The one set of thresholds (System Settings: CPU/Memory/Disk warning and critical), used by the
 * alert engine and by every card, gauge and bar that colours these figures.
 */
export const MetricThresholds = z.object({ cpu: Threshold, memory: Threshold, disk: Threshold });
export type MetricThresholds = z.infer<typeof MetricThresholds>;

export const MetricsAnswer = z.object({
  stats: SystemStats,
  series: PerformanceSeries,
  thresholds: MetricThresholds,
  /** The live window: the samples of the last minute (every 2 s while someone watches). */
  live: z.array(SystemStats).optional(),
});
export type MetricsAnswer = z.infer<typeof MetricsAnswer>;

export const ServiceState = z.enum(['running', 'stopped', 'failed']);
/** Spec §3.3 Service, read from systemd (system mode) or Mailroom's supervisor (local mode). */
export const SystemService = z.object({
  id: z.string(),
  name: z.string(),
  status: ServiceState,
  /** Seconds since the service started; 0 when not running. */
  uptime: z.number(),
  memoryUsage: z.number(),
  cpuUsage: z.number(),
  lastRestart: z.string().nullable(),
  description: z.string(),
  port: z.number().nullable(),
  pid: z.number().nullable(),
  /** Why it is in this state when that is not obvious (e.g. "not run by Mailroom in this mode"). */
  note: z.string().optional(),
  /**
   * Not running on purpose, on its way (local mode's supervisor): starting, stopping, restarting,
   * or stopped for a restore. The console shows this instead of the bare status.
   */
  pending: z.enum(['starting', 'stopping', 'restarting', 'restore']).optional(),
  /**
   * Whether Mailroom can start, stop and restart it (its own supervisor in local mode, systemd in
   * system mode); Start/Stop/Restart are offered only then.
   */
  controllable: z.boolean(),
  /** What stops while it is stopped or restarting, said in the confirmation (null: nothing notable). */
  impact: z.string().nullable(),
});
export type SystemService = z.infer<typeof SystemService>;

export const ServicesAnswer = z.object({ services: z.array(SystemService) });

export const systemMetricsRoutes = {
  metrics: defineRoute({
    method: 'GET',
    path: 'system/metrics',
    summary: 'Live machine figures and the 60-minute series',
    tags: ['system'],
    response: MetricsAnswer,
  }),
  services: defineRoute({
    method: 'GET',
    path: 'system/services',
    summary: 'The services Mailroom runs or watches, with their real state',
    tags: ['system'],
    response: ServicesAnswer,
  }),
};

/** `/api/events?topics=metrics` adds `metrics` events (a SystemStats every 2 s) to the stream. */
export const METRICS_EVENT = 'metrics';
export const METRICS_TOPIC = 'metrics';
