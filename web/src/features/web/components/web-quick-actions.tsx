import { Button, Card, Stack, Title } from '@mantine/core';
import { IconApps, IconServer, IconSettings } from '@tabler/icons-react';
import { Link } from 'react-router';

const ACTIONS = [
  { label: 'Manage Virtual Hosts', to: '/web/vhosts', icon: IconServer },
  { label: 'Manage Applications', to: '/web/applications', icon: IconApps },
  { label: 'Server Configuration', to: '/web/settings', icon: IconSettings },
];

/** The dashboard's Quick Actions (spec 3 §2.1): links to the three web screens. */
export function WebQuickActions() {
  return (
    <Card withBorder radius="md" padding="md" h="100%" component="section" aria-labelledby="web-quick-title">
      <Title order={2} size="h4" mb="sm" id="web-quick-title">
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
