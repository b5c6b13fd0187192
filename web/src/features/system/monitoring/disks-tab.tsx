import type { SystemDisk } from '@mailroom/contract/system-live';
import {
  ActionIcon,
  Button,
  Group,
  Progress,
  ScrollArea,
  SegmentedControl,
  Table,
  Text,
  Tooltip,
} from '@mantine/core';
import { IconEraser, IconEye, IconRefresh } from '@tabler/icons-react';
import { useState } from 'react';
import { formatBytes } from '../../../lib/format.ts';
import { CleanupModal } from './cleanup-modal.tsx';
import { DetailsModal } from './details-modal.tsx';

type Filter = 'all' | 'high' | 'low';
/** Spec §9: high usage over 80 %, low space under 1 GB. */
const HIGH = 80;
const LOW = 1024 ** 3;

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
      <ScrollArea>
        <Table striped highlightOnHover miw={760}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Device</Table.Th>
              <Table.Th>Mount Point</Table.Th>
              <Table.Th>File System</Table.Th>
              <Table.Th>Size</Table.Th>
              <Table.Th>Used</Table.Th>
              <Table.Th>Available</Table.Th>
              <Table.Th>Usage</Table.Th>
              <Table.Th>Actions</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.length === 0 && (
              <Table.Tr>
                <Table.Td colSpan={8}>
                  <Text c="dimmed" ta="center" py="md">
                    No disks match the filter.
                  </Text>
                </Table.Td>
              </Table.Tr>
            )}
            {rows.map((d) => (
              <Table.Tr key={`${d.device}-${d.mountPoint}`}>
                <Table.Td>{d.device}</Table.Td>
                <Table.Td>{d.mountPoint}</Table.Td>
                <Table.Td>{d.fileSystem}</Table.Td>
                <Table.Td>{formatBytes(d.totalSize)}</Table.Td>
                <Table.Td>{formatBytes(d.usedSize)}</Table.Td>
                <Table.Td>{formatBytes(d.availableSize)}</Table.Td>
                <Table.Td miw={140}>
                  <Group gap="xs" wrap="nowrap">
                    <Progress
                      value={d.usagePercent}
                      color={d.usagePercent > 90 ? 'red' : d.usagePercent > HIGH ? 'yellow' : 'blue'}
                      w={80}
                      aria-label={`${d.mountPoint} usage`}
                    />
                    <Text size="sm">{d.usagePercent.toFixed(1)}%</Text>
                  </Group>
                </Table.Td>
                <Table.Td>
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
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </ScrollArea>
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
