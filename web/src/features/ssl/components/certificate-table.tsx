import type { SslCertificate } from '@mailroom/contract/ssl';
import { ActionIcon, Group, Menu, Table, Text, Tooltip } from '@mantine/core';
import { IconDownload, IconEye, IconRefresh, IconTrash } from '@tabler/icons-react';
import { StatusBadge } from '../../../components/status-badge.tsx';
import { DaysLeft } from './days-left.tsx';

export interface CertificateTableProps {
  certificates: SslCertificate[];
  showKeySize?: boolean;
  onView: (c: SslCertificate) => void;
  onRenew: (c: SslCertificate) => void;
  onDelete: (c: SslCertificate) => void;
  onDownload?: (c: SslCertificate, format: 'pem' | 'zip') => void;
  empty: string;
}

const date = (iso: string) => new Date(iso).toLocaleDateString();

/** Domain, Status, Issuer, Valid Until, Days Left, Type, (Key Size), Actions. */
export function CertificateTable({
  certificates,
  showKeySize,
  onView,
  onRenew,
  onDelete,
  onDownload,
  empty,
}: CertificateTableProps) {
  if (certificates.length === 0)
    return (
      <Text c="dimmed" ta="center" py="md">
        {empty}
      </Text>
    );
  return (
    <Table.ScrollContainer minWidth={760}>
      <Table striped highlightOnHover verticalSpacing="xs">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Domain</Table.Th>
            <Table.Th>Status</Table.Th>
            <Table.Th>Issuer</Table.Th>
            <Table.Th>Valid Until</Table.Th>
            <Table.Th>Days Left</Table.Th>
            <Table.Th>Type</Table.Th>
            {showKeySize && <Table.Th>Key Size (bits)</Table.Th>}
            <Table.Th>Actions</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {certificates.map((c) => (
            <Table.Tr key={c.id}>
              <Table.Td>
                <Text size="sm" fw={500}>
                  {c.domain}
                </Text>
                {c.inUse.length > 0 && (
                  <Text size="xs" c="dimmed">
                    In use: {c.inUse.join(', ')}
                  </Text>
                )}
              </Table.Td>
              <Table.Td>
                <StatusBadge status={c.status} />
              </Table.Td>
              <Table.Td>{c.issuer}</Table.Td>
              <Table.Td>{date(c.validTo)}</Table.Td>
              <Table.Td>
                <DaysLeft days={c.daysUntilExpiry} />
              </Table.Td>
              <Table.Td>{c.type}</Table.Td>
              {showKeySize && <Table.Td>{c.keySize}</Table.Td>}
              <Table.Td>
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
                        <Menu.Item onClick={() => onDownload(c, 'zip')}>
                          Zip (key, chain, fullchain)
                        </Menu.Item>
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
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
