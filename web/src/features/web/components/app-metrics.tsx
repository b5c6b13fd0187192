import type { AppMetricSeries, AppMetrics } from '@mailroom/contract/web';
import { Alert, Badge, Group, Loader, Text } from '@mantine/core';
import type { ColumnDef } from '@tanstack/react-table';
import { errorMessage } from '../../../api/client.ts';
import { DataTable } from '../../../components/data-table/data-table.tsx';
import { formatRelativeTime } from '../../../lib/format.ts';
import { useAppMetrics } from '../use-app-metrics.ts';

const labelsText = (l: Record<string, string>) =>
  Object.entries(l)
    .map(([k, v]) => `${k}="${v}"`)
    .join(', ');

/** A figure as the endpoint wrote it when it is not a plain number (NaN, +Inf), else grouped. */
const valueText = (s: AppMetricSeries) =>
  s.value === null ? s.raw : s.value.toLocaleString(undefined, { maximumFractionDigits: 6 });

const rowId = (s: AppMetricSeries) => `${s.name}{${labelsText(s.labels)}}`;
const COLUMNS: ColumnDef<AppMetricSeries, unknown>[] = [
  {
    id: 'name',
    header: 'Series',
    meta: { title: true },
    cell: ({ row: { original: s } }) => (
      <span style={{ overflowWrap: 'anywhere' }}>
        <Text span size="sm" ff="monospace">
          {s.name}
        </Text>
        {Object.keys(s.labels).length > 0 && (
          <Text span size="xs" c="dimmed" ff="monospace">
            {' '}
            {`{${labelsText(s.labels)}}`}
          </Text>
        )}
      </span>
    ),
  },
  {
    id: 'type',
    header: 'Type',
    cell: ({ row }) => (
      <Badge variant="light" color="gray" size="sm">
        {row.original.type}
      </Badge>
    ),
  },
  {
    id: 'value',
    header: 'Value',
    cell: ({ row }) => (
      <Text span size="sm" ff="monospace" style={{ whiteSpace: 'nowrap' }}>
        {valueText(row.original)}
      </Text>
    ),
  },
];

function why(m: AppMetrics): string {
  switch (m.state) {
    case 'off':
      return 'Enable Monitoring is off: Mailroom does not read this application’s figures.';
    case 'not-running':
      return `No process of this application runs: ${m.endpoint} is read once it is deployed and started.`;
    case 'not-scraped':
      return `Not read yet: Mailroom reads ${m.endpoint} through the app’s port every ${m.intervalSeconds} s.`;
    case 'ok':
    case 'error':
      return '';
  }
}

/** The application's own figures, read from its Monitoring Endpoint (Prometheus text). */
export function AppMetricsView({ name }: { name: string }) {
  const q = useAppMetrics(name);
  if (q.isError)
    return (
      <Text size="sm" c="red.8" role="status">
        {errorMessage(q.error)}
      </Text>
    );
  const m = q.data;
  if (!m) return <Loader size="sm" aria-label="Loading the figures…" />;
  const when = m.scrapedAt ? formatRelativeTime(m.scrapedAt) : '';
  const read = m.scrapedAt
    ? `Read ${when.charAt(0).toLowerCase()}${when.slice(1)} from ${m.endpoint} in ${m.durationMs} ms, every ${m.intervalSeconds} s`
    : '';
  return (
    <>
      {why(m) && (
        <Text size="sm" c="dimmed">
          {why(m)}
        </Text>
      )}
      {m.state === 'error' && (
        <Alert color="red" variant="light" title={`No figures from ${m.endpoint}`} role="status">
          <Text size="xs" ff="monospace" style={{ overflowWrap: 'anywhere' }}>
            {m.error}
          </Text>
          <Text size="xs" c="dimmed" mt={4}>
            {read}
          </Text>
        </Alert>
      )}
      {m.state === 'ok' && (
        <>
          <Group justify="space-between" gap="xs">
            <Text size="xs" c="dimmed">
              {read}
            </Text>
            <Text size="xs" c="dimmed">
              {m.series.length === m.seriesTotal
                ? `${m.seriesTotal} series`
                : `${m.series.length} of ${m.seriesTotal} series (histogram buckets and quantiles left out)`}
            </Text>
          </Group>
          <DataTable
            label={`Figures of ${name}`}
            data={m.series}
            columns={COLUMNS}
            getRowId={rowId}
            emptyText={`${m.endpoint} answered no series.`}
            minWidth={420}
          />
        </>
      )}
    </>
  );
}
