import { splitDestinations, type Alias } from '@mailroom/contract/mail';
import { Badge, Group, Stack, Text } from '@mantine/core';
import type { ColumnDef } from '@tanstack/react-table';
import { useMemo } from 'react';
import { DataTable } from '../../../components/data-table/data-table.tsx';
import type { TableControls } from '../../../components/table-controls.ts';
import { StatusBadge } from '../../../components/status-badge.tsx';
import { RowActions } from './row-actions.tsx';

export interface AliasTableProps extends TableControls {
  aliases: Alias[];
  onEdit: (a: Alias) => void;
  onDelete: (a: Alias) => void;
  deleting: string | null;
}

/** Marks an alias Mailroom keeps for a required address (postmaster@, abuse@). */
function SystemBadge({ alias }: { alias: Alias }) {
  if (!alias.system) return null;
  return (
    <Badge size="xs" variant="light" color="gray" title="Required address, kept by Mailroom for the domain">
      System
    </Badge>
  );
}

function Destinations({ destination }: { destination: string }) {
  return (
    <Stack gap={0}>
      {splitDestinations(destination).map((d) => (
        <Text key={d} size="sm" style={{ overflowWrap: 'anywhere' }}>
          {d}
        </Text>
      ))}
    </Stack>
  );
}

/** A required system alias cannot be deleted, so it cannot be selected for a bulk delete either. */
const canSelect = (a: Alias) => !a.system;
const rowId = (a: Alias) => a.source;

/** The §2 alias table (sortable, selectable, paged) on the shared data table; cards on phones. */
export function AliasTable({ aliases, onEdit, onDelete, deleting, ...controls }: AliasTableProps) {
  const columns = useMemo<ColumnDef<Alias, unknown>[]>(
    () => [
      {
        id: 'source',
        header: 'Source Email',
        meta: { title: true },
        cell: ({ row: { original: a } }) => (
          <Group gap={6} wrap="nowrap">
            <Text size="sm" fw={500} style={{ overflowWrap: 'anywhere' }}>
              {a.source}
            </Text>
            <SystemBadge alias={a} />
          </Group>
        ),
      },
      {
        id: 'destination',
        header: 'Destination Email',
        cell: ({ row }) => <Destinations destination={row.original.destination} />,
      },
      { id: 'status', header: 'Status', cell: ({ row }) => <StatusBadge status={row.original.status} /> },
      {
        id: 'actions',
        header: 'Actions',
        meta: { actions: true, align: 'right' },
        cell: ({ row: { original: a } }) => (
          <RowActions
            name={a.source}
            onEdit={() => onEdit(a)}
            onDelete={a.system ? undefined : () => onDelete(a)}
            deleting={deleting === a.source}
          />
        ),
      },
    ],
    [onEdit, onDelete, deleting],
  );
  return (
    <DataTable
      {...controls}
      label="Email aliases"
      data={aliases}
      columns={columns}
      getRowId={rowId}
      canSelect={canSelect}
      minWidth={600}
    />
  );
}
