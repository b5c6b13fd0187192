import type { JobEvent } from '@mailroom/contract/jobs';
import {
  systemAdminRoutes as r,
  type BackupStatusAnswer,
  type SystemBackup,
} from '@mailroom/contract/system-admin';
import { Alert, Button, Group, Modal, Select, Stack, Text } from '@mantine/core';
import type { ColumnDef } from '@tanstack/react-table';
import { useState } from 'react';
import { apiDownload, errorMessage } from '../../../api/client.ts';
import { confirmAction } from '../../../components/confirm-action.ts';
import { JobProgress } from '../../../components/job-progress.tsx';
import { downloadBlob } from '../../../lib/csv.ts';
import { notify } from '../../../lib/notifications-store.ts';
import { useDeleteBackup } from '../use-delete-backup.ts';
import { useRestoreBackup } from '../use-restore-backup.ts';
import { useStartBackup } from '../use-start-backup.ts';
import { useVerifyBackup } from '../use-verify-backup.ts';
import { ToneBadge } from './priority-badge.tsx';
import { TableCard } from './table-card.tsx';

const FILTERS = ['All', 'Full', 'Incremental', 'Completed', 'Failed', 'Expired'] as const;
type Filter = (typeof FILTERS)[number];

const rowId = (b: SystemBackup) => String(b.id);

export interface BackupsTabProps {
  data: BackupStatusAnswer;
  job: JobEvent | null;
  run: (start: () => Promise<{ jobId: number }>, what: string) => Promise<void>;
}

/** System Backups (spec §2.10): create, view, download, delete; restore and the verified drill. */
export function BackupsTab({ data, job, run }: BackupsTabProps) {
  const [filter, setFilter] = useState<Filter>('All');
  const [type, setType] = useState<'full' | 'incremental'>('full');
  const [viewing, setViewing] = useState<SystemBackup | null>(null);
  const startBackup = useStartBackup();
  const verifyBackup = useVerifyBackup();
  const restoreBackup = useRestoreBackup();
  const deleteBackup = useDeleteBackup();
  const busy = job !== null;
  const rows = data.backups.filter((b) =>
    filter === 'All'
      ? true
      : filter === 'Full' || filter === 'Incremental'
        ? b.type === filter
        : b.status === filter.toLowerCase(),
  );
  const download = async (b: SystemBackup) => {
    try {
      downloadBlob(
        b.location.split('/').pop() ?? `backup-${b.id}.tar`,
        await apiDownload(r.downloadBackup, { params: { id: b.id } }),
      );
    } catch (err) {
      notify({ type: 'error', title: 'Download failed', message: errorMessage(err) });
    }
  };
  const remove = async (b: SystemBackup) => {
    if (
      !(await confirmAction({
        title: 'Delete backup',
        message: `Delete ${b.name} and its archive (${b.size})?`,
        confirmLabel: 'Delete',
        danger: true,
      }))
    )
      return;
    try {
      await deleteBackup.mutateAsync(b.id);
      notify({ type: 'success', title: 'Backup deleted', message: b.name });
    } catch (err) {
      notify({ type: 'error', title: 'Delete failed', message: errorMessage(err) });
    }
  };
  const restore = async (b: SystemBackup) => {
    if (
      await confirmAction({
        title: 'Restore backup',
        message:
          b.scope === 'system'
            ? `Put the data and files back as they were at ${new Date(b.createdAt).toLocaleString()} (${b.name})? Changes made since then are lost; the audit log, job history and logs stay. Postfix and Dovecot run by Mailroom stop while it runs (mail waits at the sender) and start again after. Every other session is signed out; yours stays.`
            : `Put the files of ${b.scope.replace(/^site /, '')} back as they were at ${new Date(b.createdAt).toLocaleString()} (${b.name}), with their owners? Files changed since then are overwritten; files added since then stay. Nothing else is touched.`,
        confirmLabel: 'Restore',
        danger: true,
      })
    )
      await run(() => restoreBackup.mutateAsync(b.id), `Restore of ${b.name}`);
  };
  const columns: ColumnDef<SystemBackup, unknown>[] = [
    {
      id: 'backup',
      header: 'Backup',
      meta: { title: true },
      cell: ({ row: { original: b } }) => (
        <>
          <Text size="sm" fw={500}>
            {b.name}
          </Text>
          <Text size="xs" c="dimmed" fw={400}>
            {b.description}
            {b.verifiedAt ? ` · verified ${new Date(b.verifiedAt).toLocaleDateString()}` : ''}
          </Text>
        </>
      ),
    },
    { id: 'type', header: 'Type', cell: ({ row }) => row.original.type },
    {
      id: 'scope',
      header: 'Scope',
      cell: ({ row }) => (row.original.scope === 'system' ? 'System' : row.original.scope),
    },
    { id: 'status', header: 'Status', cell: ({ row }) => <ToneBadge value={row.original.status} /> },
    {
      id: 'size',
      header: 'Size',
      cell: ({ row }) => <span style={{ whiteSpace: 'nowrap' }}>{row.original.size}</span>,
    },
    {
      id: 'created',
      header: 'Created',
      cell: ({ row }) => new Date(row.original.createdAt).toLocaleString(),
    },
    {
      id: 'expires',
      header: 'Expires',
      cell: ({ row }) =>
        row.original.expiresAt ? new Date(row.original.expiresAt).toLocaleDateString() : '—',
    },
    {
      id: 'actions',
      header: 'Actions',
      meta: { actions: true },
      // Five buttons: on a phone card they wrap beside the title instead of squeezing it to one letter.
      cell: ({ row: { original: b } }) => (
        <Group gap={4} wrap="wrap" justify="flex-end" maw={{ base: 170, sm: 'none' }}>
          <Button
            size="compact-xs"
            variant="default"
            onClick={() => setViewing(b)}
            aria-label={`View ${b.name}`}
          >
            View
          </Button>
          {b.status === 'completed' && (
            <>
              <Button
                size="compact-xs"
                variant="default"
                onClick={() => void download(b)}
                aria-label={`Download ${b.name}`}
              >
                Download
              </Button>
              <Button
                size="compact-xs"
                variant="default"
                disabled={busy}
                onClick={() => void run(() => verifyBackup.mutateAsync(b.id), `Verify of ${b.name}`)}
                aria-label={`Verify ${b.name}`}
              >
                Verify
              </Button>
              <Button
                size="compact-xs"
                variant="default"
                disabled={busy}
                onClick={() => void restore(b)}
                aria-label={`Restore ${b.name}`}
              >
                Restore
              </Button>
            </>
          )}
          {b.status !== 'active' && (
            <Button
              size="compact-xs"
              variant="default"
              disabled={busy}
              onClick={() => void remove(b)}
              aria-label={`Delete ${b.name}`}
            >
              Delete
            </Button>
          )}
        </Group>
      ),
    },
  ];
  const lv = data.lastVerified;
  return (
    <>
      <TableCard
        title="System Backups"
        filterLabel="Filter backups"
        filters={FILTERS}
        filter={filter}
        onFilter={setFilter}
        actions={
          <>
            <Select
              label="Backup type"
              size="xs"
              w={140}
              data={[
                { value: 'full', label: 'Full' },
                { value: 'incremental', label: 'Incremental' },
              ]}
              value={type}
              onChange={(v) => v && setType(v as 'full' | 'incremental')}
              allowDeselect={false}
            />
            <Button
              size="xs"
              disabled={busy}
              onClick={() => void run(() => startBackup.mutateAsync(type), 'Backup')}
            >
              Create Backup
            </Button>
          </>
        }
        footer={
          <Stack gap="xs" mb="sm">
            <Alert variant="light" color={lv ? (lv.ok ? 'green' : 'red') : 'gray'}>
              <Text size="sm" fw={700}>
                {lv ? `Last verified ${new Date(lv.at).toLocaleString()}` : 'Not verified yet'}
              </Text>
              <Text size="sm">
                {lv
                  ? `Backup ${lv.backupId}: ${lv.result}`
                  : 'Run Verify on a backup: it is restored into a scratch folder and its counts and checksums are compared.'}
              </Text>
            </Alert>
            <Text size="xs" c="dimmed">
              Schedule:{' '}
              {data.schedule.frequency === 'off'
                ? 'off'
                : `${data.schedule.frequency} at ${data.schedule.hour}:00`}
              ; kept {data.schedule.retentionDays} days (System Settings). Sites with Enable Backup also get
              backups of their own files on their own schedule and retention (Virtual Hosts).
            </Text>
            {job && <JobProgress job={job} />}
          </Stack>
        }
        data={rows}
        columns={columns}
        getRowId={rowId}
        empty={filter === 'All' ? 'No backups yet.' : 'No backups match this filter.'}
      />
      <Modal opened={viewing !== null} onClose={() => setViewing(null)} title={viewing?.name ?? ''} centered>
        {viewing && (
          <Stack gap={4}>
            <Text size="sm">
              Type: {viewing.type}
              {viewing.baseId ? ` (on top of backup ${viewing.baseId})` : ''}
            </Text>
            <Text size="sm">Scope: {viewing.scope === 'system' ? 'System' : viewing.scope}</Text>
            <Text size="sm">Status: {viewing.status}</Text>
            <Text size="sm">Size: {viewing.size}</Text>
            <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
              Location: {viewing.location}
            </Text>
            <Text size="sm">Created: {new Date(viewing.createdAt).toLocaleString()}</Text>
            {viewing.message && <Text size="sm">Message: {viewing.message}</Text>}
            {viewing.verifyResult && <Text size="sm">Last check: {viewing.verifyResult}</Text>}
          </Stack>
        )}
      </Modal>
    </>
  );
}
