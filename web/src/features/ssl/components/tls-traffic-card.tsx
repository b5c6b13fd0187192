import type { SslMetricsAnswer } from '@mailroom/contract/web/ssl-metrics';
import { Card, Group, Stack, Text, Title } from '@mantine/core';
import type { ColumnDef } from '@tanstack/react-table';
import { useMemo } from 'react';
import { errorMessage } from '../../../api/client.ts';
import { DataTable } from '../../../components/data-table/data-table.tsx';
import { LoadState } from '../../../components/load-state.tsx';
import { useTlsTraffic } from '../use-tls-traffic.ts';

type ProtocolRow = SslMetricsAnswer['protocols'][number];
type CipherRow = SslMetricsAnswer['ciphers'][number];

const count = (n: number) => n.toLocaleString();

/** The window as the roll-up counts it: the interval, rounded up to whole minutes. */
export function tlsWindow(seconds: number): string {
  const minutes = Math.max(1, Math.ceil(seconds / 60));
  const exact = seconds % 60 === 0;
  return `last ${minutes} min, SSL Metrics Interval${exact ? '' : ` (${seconds} s rounded up to whole minutes)`}`;
}

function Figure({ label, value }: { label: string; value: number }) {
  return (
    <div>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text fw={600}>{count(value)}</Text>
    </div>
  );
}

/**
 * Apache's own HTTPS traffic (SSL settings: Enable SSL Metrics, SSL Metrics Interval): requests,
 * handshakes and resumed sessions per protocol, requests per cipher, from the access log.
 */
export function TlsTrafficCard() {
  const traffic = useTlsTraffic();
  const protocolColumns = useMemo<ColumnDef<ProtocolRow, unknown>[]>(
    () => [
      {
        id: 'protocol',
        header: 'Protocol',
        meta: { title: true },
        cell: ({ row }) => (
          <Text size="sm" fw={500}>
            {row.original.protocol}
          </Text>
        ),
      },
      { id: 'requests', header: 'Requests', cell: ({ row }) => count(row.original.requests) },
      { id: 'handshakes', header: 'Handshakes', cell: ({ row }) => count(row.original.handshakes) },
      { id: 'resumed', header: 'Resumed', cell: ({ row }) => count(row.original.resumed) },
    ],
    [],
  );
  const cipherColumns = useMemo<ColumnDef<CipherRow, unknown>[]>(
    () => [
      {
        id: 'cipher',
        header: 'Cipher',
        meta: { title: true },
        cell: ({ row }) => (
          <Text size="sm" ff="monospace" style={{ overflowWrap: 'anywhere' }}>
            {row.original.cipher}
          </Text>
        ),
      },
      { id: 'protocol', header: 'Protocol', cell: ({ row }) => row.original.protocol },
      { id: 'requests', header: 'Requests', cell: ({ row }) => count(row.original.requests) },
    ],
    [],
  );
  const d = traffic.data;
  return (
    <Card withBorder padding="md" radius="md">
      <Title order={2} size="h4" mb="xs">
        TLS Traffic
      </Title>
      <LoadState
        loading={traffic.isPending}
        error={traffic.error ? errorMessage(traffic.error) : null}
        errorTitle="Could not load the TLS traffic"
        loadingLabel="Loading TLS traffic..."
        onRetry={() => void traffic.refetch()}
      >
        {d && !d.enabled ? (
          <Text size="sm" c="dimmed">
            SSL metrics are off (SSL Settings → Enable SSL Metrics).
          </Text>
        ) : (
          d && (
            <Stack gap="sm">
              <Text size="sm" c="dimmed">
                HTTPS requests in Apache&apos;s access log, {tlsWindow(d.intervalSeconds)}. A handshake is the
                first request of a connection.
              </Text>
              <Group gap="xl">
                <Figure label="Requests" value={d.totals.requests} />
                <Figure label="Handshakes" value={d.totals.handshakes} />
                <Figure label="Resumed" value={d.totals.resumed} />
              </Group>
              <DataTable
                label="TLS protocols"
                data={d.protocols}
                columns={protocolColumns}
                getRowId={(p) => p.protocol}
                emptyText="No HTTPS requests in this window."
                minWidth={480}
              />
              {d.ciphers.length > 0 && (
                <DataTable
                  label="Ciphers"
                  data={d.ciphers}
                  columns={cipherColumns}
                  getRowId={(c) => `${c.protocol} ${c.cipher}`}
                  emptyText="No HTTPS requests in this window."
                  minWidth={480}
                />
              )}
            </Stack>
          )
        )}
      </LoadState>
    </Card>
  );
}
