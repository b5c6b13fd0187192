import type { SslHealthCheck } from '@mailroom/contract/web/ssl-health';
import { Badge, Card, Text, Title } from '@mantine/core';
import type { ColumnDef } from '@tanstack/react-table';
import { useMemo } from 'react';
import { errorMessage } from '../../../api/client.ts';
import { DataTable } from '../../../components/data-table/data-table.tsx';
import { LoadState } from '../../../components/load-state.tsx';
import { useServedHealth } from '../use-served-health.ts';
import { DaysLeft } from './days-left.tsx';

const when = (iso: string) => new Date(iso).toLocaleString();

/**
 * What Apache really serves (SSL settings: Enable SSL Health Checks): per HTTPS host name, the
 * certificate of the last TLS handshake with SNI, its days left and protocol, or why it failed.
 */
export function ServedHealthCard() {
  const health = useServedHealth();
  const columns = useMemo<ColumnDef<SslHealthCheck, unknown>[]>(
    () => [
      {
        id: 'hostName',
        header: 'Host Name',
        meta: { title: true },
        cell: ({ row: { original: c } }) => (
          <Text size="sm" fw={500} style={{ overflowWrap: 'anywhere' }}>
            {c.hostName}:{c.port}
          </Text>
        ),
      },
      {
        id: 'state',
        header: 'Handshake',
        cell: ({ row: { original: c } }) =>
          !c.ok ? (
            <Badge color="red" variant="light">
              Failed
            </Badge>
          ) : c.mismatch ? (
            <Badge color="orange" variant="light">
              Not the chosen certificate
            </Badge>
          ) : (
            <Badge color="green" variant="light">
              OK
            </Badge>
          ),
      },
      {
        id: 'daysLeft',
        header: 'Days Left',
        cell: ({ row: { original: c } }) => (c.daysLeft === null ? '—' : <DaysLeft days={c.daysLeft} />),
      },
      { id: 'protocol', header: 'Protocol', cell: ({ row }) => row.original.protocol ?? '—' },
      {
        id: 'fingerprint',
        header: 'Served Certificate (SHA-256)',
        cell: ({ row: { original: c } }) => (
          <Text size="xs" ff="monospace" style={{ overflowWrap: 'anywhere' }}>
            {c.error ?? c.fingerprint ?? '—'}
          </Text>
        ),
      },
      { id: 'checkedAt', header: 'Checked', cell: ({ row }) => when(row.original.checkedAt) },
    ],
    [],
  );
  return (
    <Card withBorder padding="md" radius="md">
      <Title order={2} size="h4" mb="xs">
        Served Certificates
      </Title>
      <LoadState
        loading={health.isPending}
        error={health.error ? errorMessage(health.error) : null}
        errorTitle="Could not load the health checks"
        loadingLabel="Loading health checks..."
        onRetry={() => void health.refetch()}
      >
        {health.data && !health.data.enabled ? (
          <Text size="sm" c="dimmed">
            SSL health checks are off (SSL Settings → Enable SSL Health Checks).
          </Text>
        ) : (
          health.data && (
            <>
              <Text size="sm" c="dimmed" mb="sm">
                A TLS handshake with each HTTPS host name on Apache every {health.data.intervalSeconds} s.
              </Text>
              <DataTable
                label="Served certificates"
                data={health.data.checks}
                columns={columns}
                getRowId={(c) => c.hostName}
                emptyText="No HTTPS host name has been checked yet."
                minWidth={760}
              />
            </>
          )
        )}
      </LoadState>
    </Card>
  );
}
