import type { SslCertificate } from '@mailroom/contract/ssl';
import { ActionIcon, Group, Menu, Text, Tooltip } from '@mantine/core';
import { IconDownload, IconEye, IconRefresh, IconTrash } from '@tabler/icons-react';
import type { ColumnDef } from '@tanstack/react-table';
import { useMemo } from 'react';
import { DataTable, type TableSort } from '../../../components/data-table/data-table.tsx';
import type { ListPagerProps } from '../../../components/list-pager.tsx';
import { CertificateStatus } from './certificate-status.tsx';
import { DaysLeft } from './days-left.tsx';

export interface CertificateTableProps {
  certificates: SslCertificate[];
  showKeySize?: boolean;
  onView: (c: SslCertificate) => void;
  onRenew: (c: SslCertificate) => void;
  onDelete: (c: SslCertificate) => void;
  onDownload?: (c: SslCertificate, format: 'pem' | 'zip') => void;
  empty: string;
  /** The server's order (Domain or Valid Until); without it the table does not sort. */
  sort?: TableSort | undefined;
  onSortChange?: ((s: TableSort) => void) | undefined;
  pager?: ListPagerProps | undefined;
}

const date = (iso: string) => new Date(iso).toLocaleDateString();
const rowId = (c: SslCertificate) => String(c.id);
const rowLabel = (c: SslCertificate) => c.domain;

/** Domain, Status, Issuer, Valid Until, Days Left, Type, (Key Size), Actions on the shared table. */
export function CertificateTable({
  certificates,
  showKeySize,
  onView,
  onRenew,
  onDelete,
  onDownload,
  empty,
  sort,
  onSortChange,
  pager,
}: CertificateTableProps) {
  const columns = useMemo<ColumnDef<SslCertificate, unknown>[]>(
    () => [
      {
        id: 'domain',
        header: 'Domain',
        meta: { title: true },
        cell: ({ row: { original: c } }) => (
          <>
            <Text size="sm" fw={500} style={{ overflowWrap: 'anywhere' }}>
              {c.domain}
            </Text>
            {c.inUse.length > 0 && (
              <Text size="xs" c="dimmed">
                In use: {c.inUse.join(', ')}
              </Text>
            )}
          </>
        ),
      },
      {
        id: 'status',
        header: 'Status',
        enableSorting: false,
        cell: ({ row }) => <CertificateStatus c={row.original} />,
      },
      { id: 'issuer', header: 'Issuer', enableSorting: false, cell: ({ row }) => row.original.issuer },
      { id: 'validTo', header: 'Valid Until', cell: ({ row }) => date(row.original.validTo) },
      {
        id: 'daysLeft',
        header: 'Days Left',
        enableSorting: false,
        cell: ({ row }) => <DaysLeft days={row.original.daysUntilExpiry} />,
      },
      { id: 'type', header: 'Type', enableSorting: false, cell: ({ row }) => row.original.type },
      ...(showKeySize
        ? [
            {
              id: 'keySize',
              header: 'Key Size (bits)',
              enableSorting: false,
              cell: ({ row }: { row: { original: SslCertificate } }) => row.original.keySize,
            } satisfies ColumnDef<SslCertificate, unknown>,
          ]
        : []),
      {
        id: 'actions',
        header: 'Actions',
        meta: { actions: true },
        cell: ({ row: { original: c } }) => (
          <Group gap={4} wrap="nowrap">
            <Tooltip label="View">
              <ActionIcon variant="subtle" aria-label={`View ${c.domain}`} onClick={() => onView(c)}>
                <IconEye size={16} aria-hidden />
              </ActionIcon>
            </Tooltip>
            <Tooltip label="Renew">
              <ActionIcon
                variant="subtle"
                color="teal"
                aria-label={`Renew ${c.domain}`}
                onClick={() => onRenew(c)}
              >
                <IconRefresh size={16} aria-hidden />
              </ActionIcon>
            </Tooltip>
            {onDownload && (
              <Menu position="bottom-end" withinPortal>
                <Menu.Target>
                  <ActionIcon variant="subtle" aria-label={`Download ${c.domain}`}>
                    <IconDownload size={16} aria-hidden />
                  </ActionIcon>
                </Menu.Target>
                <Menu.Dropdown>
                  <Menu.Item onClick={() => onDownload(c, 'pem')}>PEM bundle</Menu.Item>
                  <Menu.Item onClick={() => onDownload(c, 'zip')}>Zip (key, chain, fullchain)</Menu.Item>
                </Menu.Dropdown>
              </Menu>
            )}
            <Tooltip label="Delete">
              <ActionIcon
                variant="subtle"
                color="red"
                aria-label={`Delete ${c.domain}`}
                onClick={() => onDelete(c)}
              >
                <IconTrash size={16} aria-hidden />
              </ActionIcon>
            </Tooltip>
          </Group>
        ),
      },
    ],
    [showKeySize, onView, onRenew, onDelete, onDownload],
  );
  return (
    <DataTable
      label="SSL certificates"
      data={certificates}
      columns={columns}
      getRowId={rowId}
      getRowLabel={rowLabel}
      emptyText={empty}
      sort={sort}
      onSortChange={onSortChange}
      pager={pager}
      minWidth={760}
    />
  );
}
