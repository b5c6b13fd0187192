import type { SystemRecord } from '@mailroom/contract/dns';
import { Badge, Card, Group, Text, Title } from '@mantine/core';
import type { ColumnDef } from '@tanstack/react-table';
import { CopyButton } from '../../../components/copy-button.tsx';
import { DataTable } from '../../../components/data-table/data-table.tsx';
import { StatusBadge } from '../../../components/status-badge.tsx';
import { displayName } from '../record-form-values.ts';

const SERVED_LABEL: Record<SystemRecord['state'], string> = {
  served: 'Served',
  'no-zone': 'No zone yet',
  overridden: 'Overridden',
};

const recordId = (r: SystemRecord) => `${r.zone}|${r.qname}|${r.rtype}|${r.value}`;

const COLUMNS: ColumnDef<SystemRecord, unknown>[] = [
  { id: 'zone', header: 'Zone', cell: ({ row }) => row.original.zone },
  {
    id: 'name',
    header: 'Name',
    cell: ({ row }) => (
      <Text size="sm" ff="monospace">
        {displayName(row.original.qname)}
      </Text>
    ),
  },
  {
    id: 'type',
    header: 'Type',
    cell: ({ row }) => (
      <Badge variant="light" color="gray">
        {row.original.rtype}
      </Badge>
    ),
  },
  {
    id: 'value',
    header: 'Value',
    cell: ({ row: { original: r } }) => (
      <Group gap={4} wrap="nowrap" align="flex-start" maw={460}>
        <div style={{ minWidth: 0 }}>
          <Text size="sm" ff="monospace" style={{ overflowWrap: 'anywhere' }} lineClamp={3}>
            {r.priority !== undefined ? `${r.priority} ${r.value}` : r.value}
          </Text>
          <Text size="xs" c="dimmed">
            {r.explanation}
          </Text>
          {r.warning && (
            <Text size="xs" fw={700} data-testid="system-record-warning">
              {r.warning}
            </Text>
          )}
        </div>
        <CopyButton value={r.value} label={`Copy value of ${r.rtype} ${displayName(r.qname)} in ${r.zone}`} />
      </Group>
    ),
  },
  { id: 'ttl', header: 'TTL', cell: ({ row }) => row.original.ttl },
  {
    id: 'served',
    header: 'Served',
    cell: ({ row: { original: r } }) => (
      <Group gap={4}>
        <StatusBadge status={r.published ? 'ok' : 'pending'} label={SERVED_LABEL[r.state]} />
        {r.warning && <StatusBadge status="warning" label="Not public" />}
      </Group>
    ),
  },
];

/** Read-only records derived from the mail settings, with what each is for. */
export function SystemRecords({ records }: { records: SystemRecord[] }) {
  return (
    <Card
      withBorder
      radius="md"
      padding="md"
      mt="lg"
      component="section"
      aria-labelledby="system-records-title"
    >
      <Title order={2} size="h4" id="system-records-title">
        System records
      </Title>
      <Text size="sm" c="dimmed" mb="sm">
        Derived from the mail settings of each mail domain (MX, SPF, DKIM, DMARC, autoconfig and
        autodiscover). They are read-only here: change the mail settings to change them. A record is served
        once a zone for its domain exists.
      </Text>
      {records.length === 0 ? (
        <Text c="dimmed" ta="center" py="md">
          No records are derived from the mail settings yet.
        </Text>
      ) : (
        <DataTable
          // Not "System records": the section is that region already.
          label="Records derived from the mail settings"
          data={records}
          columns={COLUMNS}
          getRowId={recordId}
          emptyText="No records are derived from the mail settings yet."
          minWidth={820}
        />
      )}
    </Card>
  );
}
