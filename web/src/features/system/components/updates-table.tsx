import type { JobEvent } from '@mailroom/contract/jobs';
import {
  systemAdminRoutes as r,
  type SystemUpdate,
  type UpdatesAnswer,
} from '@mailroom/contract/system-admin';
import { Button, Group, Modal, Stack, Table, Text } from '@mantine/core';
import { useState } from 'react';
import { apiCall } from '../../../api/client.ts';
import { confirmAction } from '../../../components/confirm-action.ts';
import { JobProgress } from '../../../components/job-progress.tsx';
import { ToneBadge } from './priority-badge.tsx';
import { TableCard } from './table-card.tsx';

const FILTERS = ['All', 'Security', 'Important', 'Optional', 'Installed'] as const;
type Filter = (typeof FILTERS)[number];

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
  const install = (packages: string[]) =>
    void run(
      () => apiCall(r.installUpdates, { body: { packages } }),
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
      void run(() => apiCall(r.removePackage, { body: { package: u.package } }), `Uninstall ${u.package}`);
  };
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
                onClick={() => void run(() => apiCall(r.checkUpdates), 'Check Updates')}
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
                : 'Package lists have not been refreshed from Mailroom yet (Check Updates).'}
            </Text>
            {job && <JobProgress job={job} />}
          </Stack>
        }
        head={['Package', 'Version', 'Priority', 'Size', 'Source', 'Actions']}
        empty={filter === 'All' ? 'The system is up to date.' : 'No updates match this filter.'}
      >
        {rows.map((u) => (
          <Table.Tr key={u.id}>
            <Table.Td>
              <Text size="sm" fw={500}>
                {u.package}
              </Text>
              <Text size="xs" c="dimmed">
                {u.description}
              </Text>
            </Table.Td>
            <Table.Td>
              <Text size="sm">
                {u.installed ? u.currentVersion : `${u.currentVersion} → ${u.availableVersion}`}
              </Text>
            </Table.Td>
            <Table.Td>
              <ToneBadge value={u.priority} />
            </Table.Td>
            <Table.Td>{u.size}</Table.Td>
            <Table.Td>{u.source}</Table.Td>
            <Table.Td>
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
            </Table.Td>
          </Table.Tr>
        ))}
      </TableCard>
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
