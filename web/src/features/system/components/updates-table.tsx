import type { JobEvent } from '@mailroom/contract/jobs';
import type { SystemUpdate, UpdatesAnswer } from '@mailroom/contract/system-admin';
import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import type { ColumnDef } from '@tanstack/react-table';
import { useState } from 'react';
import { confirmAction } from '../../../components/confirm-action.ts';
import { JobProgress } from '../../../components/job-progress.tsx';
import { useCheckUpdates } from '../use-check-updates.ts';
import { useInstallUpdates } from '../use-install-updates.ts';
import { useRemovePackage } from '../use-remove-package.ts';
import { ToneBadge } from './priority-badge.tsx';
import { formatRelativeTime } from '../../../lib/format.ts';
import { TableCard } from './table-card.tsx';

/** The age of the server's reading of apt, and whether it is being read again. */
export function readingNote(data: Pick<UpdatesAnswer, 'readAt' | 'refreshing'>): string {
  if (!data.readAt) return data.refreshing ? 'Reading the upgradable packages…' : '';
  const age = formatRelativeTime(data.readAt);
  const read = age === 'Just now' ? 'List read just now' : `List read ${age}`;
  return data.refreshing ? `${read}; reading it again…` : `${read}.`;
}

const FILTERS = ['All', 'Security', 'Important', 'Optional', 'Installed'] as const;
type Filter = (typeof FILTERS)[number];
const rowId = (u: SystemUpdate) => u.id;

export interface UpdatesTableProps {
  data: UpdatesAnswer;
  job: JobEvent | null;
  run: (start: () => Promise<{ jobId: number }>, what: string) => Promise<void>;
  /** /system/management adds Check Updates, view and uninstall. */
  manage?: boolean;
}

/** Available Updates (spec §2.8) and System Updates (§2.10): apt's upgradable packages. */
export function UpdatesTable({ data, job, run, manage = false }: UpdatesTableProps) {
  const [filter, setFilter] = useState<Filter>('All');
  const [viewing, setViewing] = useState<SystemUpdate | null>(null);
  const pending = data.updates.filter((u) => !u.installed);
  const rows = data.updates.filter((u) =>
    filter === 'All'
      ? true
      : filter === 'Installed'
        ? u.installed
        : !u.installed && u.priority === filter.toLowerCase(),
  );
  const busy = job !== null;
  const checkUpdates = useCheckUpdates();
  const installUpdates = useInstallUpdates();
  const removePackage = useRemovePackage();
  const install = (packages: string[]) =>
    void run(
      () => installUpdates.mutateAsync(packages),
      packages.length ? `Install ${packages.join(', ')}` : 'Install All',
    );
  const installAll = async () => {
    if (
      await confirmAction({
        title: 'Install all updates',
        message: `Install ${pending.length} update${pending.length === 1 ? '' : 's'} with apt now? Services may restart.`,
        confirmLabel: 'Install All',
      })
    )
      install([]);
  };
  const uninstall = async (u: SystemUpdate) => {
    if (
      await confirmAction({
        title: `Uninstall ${u.package}`,
        message: `Remove ${u.package} ${u.currentVersion} from this server? Nothing else is removed with it.`,
        confirmLabel: 'Uninstall',
        danger: true,
      })
    )
      void run(() => removePackage.mutateAsync(u.package), `Uninstall ${u.package}`);
  };
  const columns: ColumnDef<SystemUpdate, unknown>[] = [
    {
      id: 'package',
      header: 'Package',
      meta: { title: true },
      cell: ({ row: { original: u } }) => (
        <>
          <Text size="sm" fw={500}>
            {u.package}
          </Text>
          <Text size="xs" c="dimmed" fw={400}>
            {u.description}
          </Text>
        </>
      ),
    },
    {
      id: 'version',
      header: 'Version',
      cell: ({ row: { original: u } }) => (
        <Text size="sm">
          {u.installed ? u.currentVersion : `${u.currentVersion} → ${u.availableVersion}`}
        </Text>
      ),
    },
    { id: 'priority', header: 'Priority', cell: ({ row }) => <ToneBadge value={row.original.priority} /> },
    {
      id: 'size',
      header: 'Size',
      // "12.5 kB" on one line: a number apart from its unit reads as two figures (issue 22).
      cell: ({ row }) => (
        <Text span size="sm" style={{ whiteSpace: 'nowrap' }} data-testid="update-size">
          {row.original.size}
        </Text>
      ),
    },
    { id: 'source', header: 'Source', cell: ({ row }) => row.original.source },
    {
      id: 'actions',
      header: 'Actions',
      meta: { actions: true },
      cell: ({ row: { original: u } }) => (
        <Group gap={4} wrap="nowrap">
          {manage && (
            <Button
              size="compact-xs"
              variant="default"
              onClick={() => setViewing(u)}
              aria-label={`View ${u.package}`}
            >
              View
            </Button>
          )}
          {!u.installed && (
            <Button
              size="compact-xs"
              disabled={busy}
              onClick={() => install([u.package])}
              aria-label={`Install ${u.package}`}
            >
              Install
            </Button>
          )}
          {manage && u.installed && u.removable && (
            <Button
              size="compact-xs"
              variant="default"
              disabled={busy}
              onClick={() => void uninstall(u)}
              aria-label={`Uninstall ${u.package}`}
            >
              Uninstall
            </Button>
          )}
        </Group>
      ),
    },
  ];
  return (
    <>
      <TableCard
        title={manage ? 'System Updates' : 'Available Updates'}
        filterLabel="Filter updates"
        filters={FILTERS}
        filter={filter}
        onFilter={setFilter}
        actions={
          <>
            {manage && (
              <Button
                size="xs"
                variant="default"
                disabled={busy}
                onClick={() => void run(() => checkUpdates.mutateAsync(), 'Check Updates')}
              >
                Check Updates
              </Button>
            )}
            <Button size="xs" disabled={busy || pending.length === 0} onClick={() => void installAll()}>
              Install All
            </Button>
          </>
        }
        footer={
          <Stack gap="xs" mb="sm">
            <Text size="xs" c="dimmed">
              {data.checkedAt
                ? `Package lists refreshed ${new Date(data.checkedAt).toLocaleString()}.`
                : 'Package lists have not been refreshed from Mailroom yet (Check Updates).'}{' '}
              {readingNote(data)}
            </Text>
            {job && <JobProgress job={job} />}
          </Stack>
        }
        data={rows}
        columns={columns}
        getRowId={rowId}
        minWidth={720}
        empty={
          !data.readAt && data.refreshing
            ? 'Reading the upgradable packages…'
            : filter === 'All'
              ? 'The system is up to date.'
              : 'No updates match this filter.'
        }
      />
      <Modal
        opened={viewing !== null}
        onClose={() => setViewing(null)}
        title={viewing?.package ?? ''}
        centered
      >
        {viewing && (
          <Stack gap={4}>
            <Text size="sm">{viewing.description}</Text>
            <Text size="sm">Installed version: {viewing.currentVersion}</Text>
            {!viewing.installed && <Text size="sm">Available version: {viewing.availableVersion}</Text>}
            <Text size="sm">Priority: {viewing.priority}</Text>
            <Text size="sm">Size: {viewing.size}</Text>
            <Text size="sm">Source: {viewing.source}</Text>
            {viewing.installDate && (
              <Text size="sm">Installed: {new Date(viewing.installDate).toLocaleString()}</Text>
            )}
          </Stack>
        )}
      </Modal>
    </>
  );
}
