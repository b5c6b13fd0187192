import type { SystemRecord } from '@mailroom/contract/dns';
import { Badge, Card, Group, Table, Text, Title } from '@mantine/core';
import { CopyButton } from '../../../components/copy-button.tsx';
import { StatusBadge } from '../../../components/status-badge.tsx';
import { displayName } from '../record-form-values.ts';

const SERVED_LABEL: Record<SystemRecord['state'], string> = {
  served: 'Served',
  'no-zone': 'No zone yet',
  overridden: 'Overridden',
};

/** Read-only records derived from the mail settings, with what each is for. */
export function SystemRecords({ records }: { records: SystemRecord[] }) {
  return (
    <Card
      withBorder
      radius="md"
      padding="md"
      mt="lg"
      component="section"
      aria-labelledby="system-records-title"
    >
      <Title order={2} size="h4" id="system-records-title">
        System records
      </Title>
      <Text size="sm" c="dimmed" mb="sm">
        Derived from the mail settings of each mail domain (MX, SPF, DKIM, DMARC, autoconfig and
        autodiscover). They are read-only here: change the mail settings to change them. A record is served
        once a zone for its domain exists.
      </Text>
      {records.length === 0 ? (
        <Text c="dimmed" ta="center" py="md">
          No records are derived from the mail settings yet.
        </Text>
      ) : (
        <Table.ScrollContainer minWidth={820}>
          <Table verticalSpacing="xs" aria-label="System records">
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col" miw={120}>
                  Zone
                </Table.Th>
                <Table.Th scope="col">Name</Table.Th>
                <Table.Th scope="col" miw={90}>
                  Type
                </Table.Th>
                <Table.Th scope="col">Value</Table.Th>
                <Table.Th scope="col">TTL</Table.Th>
                <Table.Th scope="col" miw={130}>
                  Served
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {records.map((r, i) => (
                <Table.Tr key={`${r.zone}-${r.qname}-${r.rtype}-${i}`}>
                  <Table.Td>{r.zone}</Table.Td>
                  <Table.Td>
                    <Text size="sm" ff="monospace">
                      {displayName(r.qname)}
                    </Text>
                  </Table.Td>
                  <Table.Td>
                    <Badge variant="light" color="gray">
                      {r.rtype}
                    </Badge>
                  </Table.Td>
                  <Table.Td maw={460}>
                    <Group gap={4} wrap="nowrap" align="flex-start">
                      <div style={{ minWidth: 0 }}>
                        <Text size="sm" ff="monospace" style={{ overflowWrap: 'anywhere' }} lineClamp={3}>
                          {r.priority !== undefined ? `${r.priority} ${r.value}` : r.value}
                        </Text>
                        <Text size="xs" c="dimmed">
                          {r.explanation}
                        </Text>
                        {r.warning && (
                          <Text size="xs" fw={700} data-testid="system-record-warning">
                            {r.warning}
                          </Text>
                        )}
                      </div>
                      <CopyButton
                        value={r.value}
                        label={`Copy value of ${r.rtype} ${displayName(r.qname)} in ${r.zone}`}
                      />
                    </Group>
                  </Table.Td>
                  <Table.Td>{r.ttl}</Table.Td>
                  <Table.Td>
                    <Group gap={4}>
                      <StatusBadge status={r.published ? 'ok' : 'pending'} label={SERVED_LABEL[r.state]} />
                      {r.warning && <StatusBadge status="warning" label="Not public" />}
                    </Group>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Card>
  );
}
