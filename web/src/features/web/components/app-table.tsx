import type { WebApplicationSummary } from '@mailroom/contract/web';
import { Stack, Text } from '@mantine/core';
import type { ColumnDef } from '@tanstack/react-table';
import { type ReactNode, useMemo } from 'react';
import { DataTable } from '../../../components/data-table/data-table.tsx';
import type { TableControls } from '../../../components/table-controls.ts';
import { formatAppUptime, lastLines } from '../app-format.ts';
import { formatLastModified, formatWebNumber } from '../web-format.ts';
import { AppStatusBadge } from './app-status-badge.tsx';
import { Breakable } from './breakable.tsx';

export interface AppTableProps extends TableControls {
  apps: WebApplicationSummary[];
  label?: string;
  /** The list page shows Last Deployed; the dashboard's table does not (spec 3 §2.1). */
  lastDeployed?: boolean;
  /** The row's actions cell. */
  actions: (a: WebApplicationSummary) => ReactNode;
}

const rowId = (a: WebApplicationSummary) => a.name;

/** An application's status, with the last lines saying why when it is in error. */
export function AppStatusCell({ app }: { app: WebApplicationSummary }) {
  const why = app.status === 'error' ? lastLines(app.statusMessage, 3) : [];
  return (
    <Stack gap={2} align="flex-start">
      <AppStatusBadge status={app.status} />
      {why.length > 0 && (
        <Text
          size="xs"
          ff="monospace"
          c="red.8"
          style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word', maxWidth: 210 }}
        >
          {why.join('\n')}
        </Text>
      )}
    </Stack>
  );
}

/** The application rows (spec 3 §2.3) on the shared data table: phone cards below 48em. */
export function AppTable({
  apps,
  label = 'Web Applications',
  lastDeployed = true,
  actions,
  ...controls
}: AppTableProps) {
  const columns = useMemo<ColumnDef<WebApplicationSummary, unknown>[]>(() => {
    const cols: ColumnDef<WebApplicationSummary, unknown>[] = [
      {
        id: 'name',
        header: 'Name',
        meta: { title: true },
        cell: ({ row: { original: a } }) => (
          <Stack gap={0}>
            <Text size="sm" fw={500} style={{ overflowWrap: 'break-word' }}>
              {a.name}
            </Text>
            {a.description && (
              <Text size="xs" c="dimmed" style={{ overflowWrap: 'break-word' }}>
                {a.description}
              </Text>
            )}
          </Stack>
        ),
      },
      {
        id: 'domain',
        header: 'Domain',
        cell: ({ row }) => (
          <Text size="sm" style={{ overflowWrap: 'break-word' }}>
            <Breakable text={row.original.domain} />
          </Text>
        ),
      },
      { id: 'type', header: 'Type', cell: ({ row }) => row.original.type },
      {
        id: 'version',
        header: 'Version',
        enableSorting: false,
        cell: ({ row }) => row.original.version,
      },
      { id: 'status', header: 'Status', cell: ({ row }) => <AppStatusCell app={row.original} /> },
      {
        id: 'uptime',
        header: 'Uptime',
        enableSorting: false,
        meta: { align: 'right' },
        cell: ({ row }) => formatAppUptime(row.original.uptime),
      },
      {
        id: 'requests',
        header: 'Requests',
        enableSorting: false,
        meta: { align: 'right' },
        cell: ({ row }) => formatWebNumber(row.original.requests),
      },
      {
        id: 'errors',
        header: 'Errors',
        enableSorting: false,
        meta: { align: 'right' },
        cell: ({ row }) => formatWebNumber(row.original.errors),
      },
    ];
    if (lastDeployed)
      cols.push({
        id: 'lastDeployed',
        header: 'Last Deployed',
        cell: ({ row }) =>
          row.original.lastDeployed ? formatLastModified(row.original.lastDeployed) : 'Never',
      });
    cols.push({
      id: 'actions',
      header: 'Actions',
      meta: { actions: true, align: 'right' },
      cell: ({ row }) => actions(row.original),
    });
    return cols;
  }, [lastDeployed, actions]);
  return (
    <DataTable
      {...controls}
      label={label}
      data={apps}
      columns={columns}
      getRowId={rowId}
      minWidth={lastDeployed ? 960 : 900}
    />
  );
}
