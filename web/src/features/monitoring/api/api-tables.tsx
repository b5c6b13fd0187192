import type { RecentRequest, RouteStats } from '@mailroom/contract/api-monitoring';
import { Badge, Text } from '@mantine/core';
import type { ColumnDef } from '@tanstack/react-table';
import { useMemo } from 'react';
import { DataTable } from '../../../components/data-table/data-table.tsx';
import { statusColor } from '../../../components/status-badge.tsx';
import { formatMs } from './health.ts';

const routeText = (method: string, route: string) => (
  <Text size="sm" ff="monospace" style={{ overflowWrap: 'anywhere' }}>
    {method} {route}
  </Text>
);

/** Routes by their pattern, slowest first (p95). */
export function RoutesTable({ routes }: { routes: RouteStats[] }) {
  const columns = useMemo<ColumnDef<RouteStats, unknown>[]>(
    () => [
      {
        id: 'route',
        header: 'Route',
        meta: { title: true },
        cell: ({ row: { original: r } }) => routeText(r.method, r.route),
      },
      {
        id: 'requests',
        header: 'Requests',
        meta: { align: 'right' },
        cell: ({ row }) => row.original.requestCount,
      },
      {
        id: 'avg',
        header: 'Average',
        meta: { align: 'right' },
        cell: ({ row }) => formatMs(row.original.averageResponseTime),
      },
      { id: 'p95', header: 'p95', meta: { align: 'right' }, cell: ({ row }) => formatMs(row.original.p95) },
      { id: 'p99', header: 'p99', meta: { align: 'right' }, cell: ({ row }) => formatMs(row.original.p99) },
      {
        id: 'errors',
        header: 'Errors (5xx / 4xx)',
        meta: { align: 'right' },
        cell: ({ row: { original: r } }) => `${r.errorCount} / ${r.clientErrorCount}`,
      },
    ],
    [],
  );
  return (
    <DataTable
      label="Routes, slowest first"
      data={routes}
      columns={columns}
      getRowId={(r) => `${r.method} ${r.route}`}
      emptyText="No requests in this period"
      minWidth={720}
    />
  );
}

const statusWord = (s: number) => (s >= 500 ? 'error' : s >= 400 ? 'warning' : 'success');

/** The latest requests of every worker, newest first. */
export function RecentTable({ recent }: { recent: RecentRequest[] }) {
  const columns = useMemo<ColumnDef<RecentRequest, unknown>[]>(
    () => [
      {
        id: 'route',
        header: 'Route',
        meta: { title: true },
        cell: ({ row: { original: r } }) => routeText(r.method, r.route),
      },
      {
        id: 'status',
        header: 'Status',
        cell: ({ row: { original: r } }) => (
          <Badge variant="dot" color={statusColor(statusWord(r.status))}>
            {r.status}
          </Badge>
        ),
      },
      {
        id: 'time',
        header: 'Time',
        meta: { align: 'right' },
        cell: ({ row }) => formatMs(row.original.responseTime),
      },
      { id: 'cache', header: 'Cache', cell: ({ row }) => row.original.cache ?? '—' },
      {
        id: 'at',
        header: 'When',
        cell: ({ row }) => new Date(row.original.timestamp).toLocaleTimeString(),
      },
    ],
    [],
  );
  return (
    <DataTable
      label="Latest requests"
      data={recent}
      columns={columns}
      getRowId={(r) => `${r.timestamp} ${r.method} ${r.route} ${r.status} ${r.responseTime}`}
      emptyText="No requests yet"
      minWidth={640}
    />
  );
}
