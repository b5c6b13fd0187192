import type { SystemDisk } from '@mailroom/contract/system-live';
import { ActionIcon, Button, Group, Progress, SegmentedControl, Text, Tooltip } from '@mantine/core';
import { IconEraser, IconEye, IconRefresh } from '@tabler/icons-react';
import type { ColumnDef } from '@tanstack/react-table';
import { useMemo, useState } from 'react';
import { formatBytes } from '../../../lib/format.ts';
import { CleanupModal } from './cleanup-modal.tsx';
import { DetailsModal } from './details-modal.tsx';
import { LiveTable } from './live-list.tsx';

type Filter = 'all' | 'high' | 'low';
/** Spec §9: high usage over 80 %, low space under 1 GB. */
const HIGH = 80;
const LOW = 1024 ** 3;
const rowId = (d: SystemDisk) => `${d.device}-${d.mountPoint}`;

export function DisksTab({
  disks,
  onRefresh,
  refreshing,
}: {
  disks: SystemDisk[];
  onRefresh: () => void;
  refreshing: boolean;
}) {
  const [filter, setFilter] = useState<Filter>('all');
  const [details, setDetails] = useState<SystemDisk | null>(null);
  const [cleanup, setCleanup] = useState(false);
  const rows = disks.filter((d) =>
    filter === 'high' ? d.usagePercent > HIGH : filter === 'low' ? d.availableSize < LOW : true,
  );
  const columns = useMemo<ColumnDef<SystemDisk, unknown>[]>(
    () => [
      { id: 'device', header: 'Device', cell: ({ row }) => row.original.device },
      {
        id: 'mountPoint',
        header: 'Mount Point',
        meta: { title: true },
        cell: ({ row }) => row.original.mountPoint,
      },
      { id: 'fileSystem', header: 'File System', cell: ({ row }) => row.original.fileSystem },
      { id: 'totalSize', header: 'Size', cell: ({ row }) => formatBytes(row.original.totalSize) },
      { id: 'usedSize', header: 'Used', cell: ({ row }) => formatBytes(row.original.usedSize) },
      {
        id: 'availableSize',
        header: 'Available',
        cell: ({ row }) => formatBytes(row.original.availableSize),
      },
      {
        id: 'usage',
        header: 'Usage',
        cell: ({ row: { original: d } }) => (
          <Group gap="xs" wrap="nowrap" miw={140}>
            <Progress
              value={d.usagePercent}
              color={d.usagePercent > 90 ? 'red' : d.usagePercent > HIGH ? 'yellow' : 'blue'}
              w={80}
              aria-label={`${d.mountPoint} usage`}
            />
            <Text size="sm">{d.usagePercent.toFixed(1)}%</Text>
          </Group>
        ),
      },
      {
        id: 'actions',
        header: 'Actions',
        meta: { actions: true },
        cell: ({ row: { original: d } }) => (
          <Group gap={4} wrap="nowrap">
            <Tooltip label="View details">
              <ActionIcon
                variant="subtle"
                aria-label={`View details of ${d.mountPoint}`}
                onClick={() => setDetails(d)}
              >
                <IconEye size={16} aria-hidden />
              </ActionIcon>
            </Tooltip>
            <Tooltip label="Cleanup">
              <ActionIcon
                variant="subtle"
                color="orange"
                aria-label={`Clean up ${d.mountPoint}`}
                onClick={() => setCleanup(true)}
              >
                <IconEraser size={16} aria-hidden />
              </ActionIcon>
            </Tooltip>
          </Group>
        ),
      },
    ],
    [],
  );
  return (
    <>
      <Group justify="space-between" mb="sm" wrap="wrap">
        <SegmentedControl
          aria-label="Disk filter"
          value={filter}
          onChange={(v) => setFilter(v as Filter)}
          data={[
            { value: 'all', label: 'All' },
            { value: 'high', label: 'High Usage' },
            { value: 'low', label: 'Low Space' },
          ]}
        />
        <Button
          variant="default"
          leftSection={<IconRefresh size={16} aria-hidden />}
          onClick={onRefresh}
          loading={refreshing}
        >
          Refresh
        </Button>
      </Group>
      <LiveTable
        label="Disks"
        rows={rows}
        columns={columns}
        getRowId={rowId}
        getRowLabel={(d) => d.mountPoint}
        emptyText="No disks match the filter."
      />
      <DetailsModal
        title={details ? `Disk ${details.mountPoint}` : ''}
        onClose={() => setDetails(null)}
        rows={
          details && [
            ['Device', details.device],
            ['Mount point', details.mountPoint],
            ['File system', details.fileSystem],
            ['Size', formatBytes(details.totalSize)],
            ['Used', formatBytes(details.usedSize)],
            ['Available', formatBytes(details.availableSize)],
            ['Usage', `${details.usagePercent.toFixed(1)}%`],
          ]
        }
      />
      <CleanupModal opened={cleanup} onClose={() => setCleanup(false)} />
    </>
  );
}
