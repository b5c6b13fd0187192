import {
  METRICS_EVENT,
  METRICS_TOPIC,
  systemMetricsRoutes,
  type MetricsAnswer,
  type SystemStats,
} from '@mailroom/contract/system-metrics';
import { EVENTS_PATH } from '@mailroom/contract/jobs';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { apiCall } from './client.ts';

export const metricsKey = ['system', 'metrics'] as const;
const LIVE_CAP = 30;

/**
 * The machine's figures: the snapshot (with the 60-minute series) once, then every new sample pushed
 * by the server over `/api/events?topics=metrics` (every 2 s while this stream is open); no polling.
 * The series is read again only when a sample starts a new minute.
 */
export function useLiveMetrics() {
  const qc = useQueryClient();
  const query = useQuery({ queryKey: metricsKey, queryFn: () => apiCall(systemMetricsRoutes.metrics) });
  const [connected, setConnected] = useState(false);

  useEffect(() => {
    if (typeof EventSource === 'undefined') return;
    const source = new EventSource(`${EVENTS_PATH}?topics=${METRICS_TOPIC}`, { withCredentials: true });
    source.addEventListener('open', () => setConnected(true));
    source.addEventListener('error', () => setConnected(false));
    source.addEventListener(METRICS_EVENT, (e) => {
      let stats: SystemStats;
      try {
        stats = JSON.parse(String((e as MessageEvent<unknown>).data)) as SystemStats;
      } catch {
        return;
      }
      const prev = qc.getQueryData<MetricsAnswer>(metricsKey);
      if (!prev) return;
      const lastPoint = prev.series.cpu[prev.series.cpu.length - 1];
      const minute = (iso: string) => Math.floor(Date.parse(iso) / 60_000);
      qc.setQueryData<MetricsAnswer>(metricsKey, {
        ...prev,
        stats,
        live: [...(prev.live ?? []), stats].slice(-LIVE_CAP),
      });
      if (lastPoint && minute(stats.sampledAt) !== minute(lastPoint.timestamp))
        void qc.invalidateQueries({ queryKey: metricsKey });
    });
    return () => source.close();
  }, [qc]);

  return { ...query, connected };
}

export type MetricStatus = 'good' | 'warning' | 'critical';
/*
 * The thresholds of the metric cards come with the figures (`MetricsAnswer.thresholds`): the
 * System Settings the alert engine raises from, so a card never says "Good" beside an open alert.
 */

export function metricStatus(value: number, t: { warning: number; critical: number }): MetricStatus {
  if (value >= t.critical) return 'critical';
  if (value >= t.warning) return 'warning';
  return 'good';
}

export const STATUS_COLOR: Record<MetricStatus, string> = {
  good: 'green',
  warning: 'yellow',
  critical: 'red',
};

/** Trend of a series: up, down or stable (within one point) between the last two values. */
export function trendOf(values: number[]): 'up' | 'down' | 'stable' {
  if (values.length < 2) return 'stable';
  const d = values[values.length - 1]! - values[values.length - 2]!;
  return d > 1 ? 'up' : d < -1 ? 'down' : 'stable';
}

export function average(values: number[]): number {
  if (!values.length) return 0;
  return Math.round((values.reduce((a, b) => a + b, 0) / values.length) * 10) / 10;
}
