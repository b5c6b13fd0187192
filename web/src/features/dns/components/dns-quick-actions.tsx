import { Button, Card, Stack, Title } from '@mantine/core';
import { IconCertificate, IconList, IconSettings, IconWorld } from '@tabler/icons-react';
import { Link } from 'react-router';

const ACTIONS = [
  { label: 'Manage Zones', to: '/dns/zones', icon: IconWorld },
  { label: 'Manage Records', to: '/dns/records', icon: IconList },
  { label: 'DNS Settings', to: '/dns/settings', icon: IconSettings },
  { label: 'SSL Certificates', to: '/ssl', icon: IconCertificate },
];

export function DnsQuickActions() {
  return (
    <Card withBorder radius="md" padding="md">
      <Title order={2} size="h4" mb="sm">
        Quick Actions
      </Title>
      <Stack gap="xs">
        {ACTIONS.map(({ label, to, icon: Icon }) => (
          <Button
            key={to}
            component={Link}
            to={to}
            variant="light"
            justify="flex-start"
            leftSection={<Icon size={16} aria-hidden />}
          >
            {label}
          </Button>
        ))}
      </Stack>
    </Card>
  );
}
