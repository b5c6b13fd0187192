import { splitDestinations, type Alias } from '@mailroom/contract/mail';
import { Badge, Box, Group, Paper, Stack, Table, Text } from '@mantine/core';
import { StatusBadge } from '../../../components/status-badge.tsx';
import { RowActions } from './row-actions.tsx';

export interface AliasTableProps {
  aliases: Alias[];
  onEdit: (a: Alias) => void;
  onDelete: (a: Alias) => void;
  deleting: string | null;
  /** Shown in place of rows when there are none. */
  emptyText: string;
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

/** The §2 table on wide screens; one card per alias on phones. */
export function AliasTable({ aliases, onEdit, onDelete, deleting, emptyText }: AliasTableProps) {
  return (
    <>
      <Box visibleFrom="sm">
        <Table.ScrollContainer minWidth={600}>
          <Table striped highlightOnHover verticalSpacing="sm">
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">Source Email</Table.Th>
                <Table.Th scope="col">Destination Email</Table.Th>
                <Table.Th scope="col">Status</Table.Th>
                <Table.Th scope="col" style={{ textAlign: 'right' }}>
                  Actions
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {aliases.length === 0 && (
                <Table.Tr>
                  <Table.Td colSpan={4}>
                    <Text c="dimmed" ta="center" py="lg">
                      {emptyText}
                    </Text>
                  </Table.Td>
                </Table.Tr>
              )}
              {aliases.map((a) => (
                <Table.Tr key={a.source}>
                  <Table.Td>
                    <Group gap={6} wrap="nowrap">
                      <Text size="sm" fw={500} style={{ overflowWrap: 'anywhere' }}>
                        {a.source}
                      </Text>
                      <SystemBadge alias={a} />
                    </Group>
                  </Table.Td>
                  <Table.Td>
                    <Destinations destination={a.destination} />
                  </Table.Td>
                  <Table.Td>
                    <StatusBadge status={a.status} />
                  </Table.Td>
                  <Table.Td>
                    <RowActions
                      name={a.source}
                      onEdit={() => onEdit(a)}
                      onDelete={a.system ? undefined : () => onDelete(a)}
                      deleting={deleting === a.source}
                    />
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      </Box>
      <Stack
        hiddenFrom="sm"
        gap="xs"
        component="ul"
        style={{ listStyle: 'none', padding: 0, margin: 0 }}
        aria-label="Email aliases"
      >
        {aliases.length === 0 && (
          <Text c="dimmed" ta="center" py="lg" component="li">
            {emptyText}
          </Text>
        )}
        {aliases.map((a) => (
          <Paper key={a.source} withBorder p="sm" radius="md" component="li">
            <Group justify="space-between" gap="xs" wrap="nowrap" align="flex-start">
              <Group gap={6} wrap="nowrap" style={{ minWidth: 0 }}>
                <Text size="sm" fw={600} style={{ overflowWrap: 'anywhere', minWidth: 0 }}>
                  {a.source}
                </Text>
                <SystemBadge alias={a} />
              </Group>
              <RowActions
                name={a.source}
                onEdit={() => onEdit(a)}
                onDelete={a.system ? undefined : () => onDelete(a)}
                deleting={deleting === a.source}
              />
            </Group>
            <Group gap="xs" mt={6} align="flex-start" wrap="nowrap">
              <Text size="xs" c="dimmed" mt={2}>
                to
              </Text>
              <Box style={{ minWidth: 0, flex: 1 }}>
                <Destinations destination={a.destination} />
              </Box>
              <StatusBadge status={a.status} />
            </Group>
          </Paper>
        ))}
      </Stack>
    </>
  );
}
