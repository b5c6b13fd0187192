import { Alert, Anchor, Text } from '@mantine/core';
import { IconTool } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { apiCall } from '../../api/client.ts';
import { systemAdminRoutes } from '../../api/first-screen-routes.ts';

/** Shown on every console page while maintenance mode is on (the API refuses changes then). */
export function MaintenanceBanner() {
  const settings = useQuery({
    queryKey: ['system-admin', 'settings'],
    queryFn: () => apiCall(systemAdminRoutes.settings, { background: true }),
    refetchInterval: 30_000,
  });
  if (!settings.data?.form.maintenanceMode) return null;
  return (
    <Alert color="orange" variant="light" icon={<IconTool aria-hidden />} mb="md" role="status">
      <Text size="sm" fw={700}>
        Maintenance mode is on
      </Text>
      <Text size="sm">
        Changes are refused until it is turned off in{' '}
        <Anchor component={Link} to="/system/management">
          System Settings
        </Anchor>
        ; reading keeps working.
      </Text>
    </Alert>
  );
}
