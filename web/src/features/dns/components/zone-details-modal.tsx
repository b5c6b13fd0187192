import type { Zone } from '@mailroom/contract/dns';
import { Button, Card, Group, Modal, SimpleGrid, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { StatusBadge } from '../../../components/status-badge.tsx';
import { formatRelativeTime } from '../../../lib/format.ts';
import { zoneTypeLabel } from './zone-fields.tsx';

function Item({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <Text size="xs" c="dimmed" fw={600} tt="uppercase">
        {label}
      </Text>
      <Text size="sm" component="div" style={{ overflowWrap: 'anywhere' }}>
        {children}
      </Text>
    </div>
  );
}

export interface ZoneDetailsModalProps {
  zone: Zone;
  onClose: () => void;
  onEdit: () => void;
  onViewFile: () => void;
}

/** 'Zone Details: {domain}' with the SOA block; Close and Edit Zone. */
export function ZoneDetailsModal({ zone, onClose, onEdit, onViewFile }: ZoneDetailsModalProps) {
  const seconds = (n: number) => `${n.toLocaleString()} seconds`;
  return (
    <Modal
      opened
      onClose={onClose}
      title={`Zone Details: ${zone.domain}`}
      size="lg"
      centered
      closeButtonProps={{ 'aria-label': 'Close details' }}
    >
      <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
        <Item label="Domain">{zone.domain}</Item>
        <Item label="Status">
          <StatusBadge status={zone.status} />
        </Item>
        <Item label="Type">{zoneTypeLabel(zone.zoneType)}</Item>
        <Item label="Records">{zone.records}</Item>
        <Item label="Last Updated">
          <span title={new Date(zone.lastUpdated).toLocaleString()}>
            {formatRelativeTime(zone.lastUpdated)}
          </span>
        </Item>
        {zone.primaries.length > 0 && <Item label="Primary Servers">{zone.primaries.join(', ')}</Item>}
      </SimpleGrid>
      <Card withBorder radius="md" padding="sm" mt="md">
        <Title order={3} size="h5" mb="xs">
          SOA Record
        </Title>
        <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
          <Item label="Primary NS">{zone.soa.primary}</Item>
          <Item label="Admin Email">{zone.soa.email}</Item>
          <Item label="Serial">{zone.soa.serial}</Item>
          <Item label="Refresh">{seconds(zone.soa.refresh)}</Item>
          <Item label="Retry">{seconds(zone.soa.retry)}</Item>
          <Item label="Expire">{seconds(zone.soa.expire)}</Item>
          <Item label="Minimum TTL">{seconds(zone.soa.minimum)}</Item>
        </SimpleGrid>
      </Card>
      <Group justify="space-between" mt="lg" wrap="wrap">
        <Group gap="xs">
          <Button variant="subtle" onClick={onViewFile}>
            View Zone File
          </Button>
          <Button
            variant="subtle"
            component={Link}
            to={`/dns/records?zone=${encodeURIComponent(zone.domain)}`}
          >
            View Records
          </Button>
        </Group>
        <Group gap="xs">
          <Button variant="default" onClick={onClose}>
            Close
          </Button>
          <Button onClick={onEdit}>Edit Zone</Button>
        </Group>
      </Group>
    </Modal>
  );
}
