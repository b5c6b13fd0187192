import {
  appMessages,
  WEB_DASHBOARD_APPS,
  type WebApplicationSummary,
  type WebStats,
} from '@mailroom/contract/web';
import { ActionIcon, Anchor, Card, Group, Text, Title, Tooltip } from '@mantine/core';
import { IconEye, IconPencil } from '@tabler/icons-react';
import { useCallback } from 'react';
import { Link } from 'react-router';
import { formatWebNumber } from '../web-format.ts';
import { AppTable } from './app-table.tsx';

/**
 * The Web Applications table of the dashboard (spec 3 §2.1) from the server's dashboard answer: the
 * total and active counts, the first applications by name with edit and view (both open them on
 * the Applications page).
 */
export function WebApplicationsCard({
  apps,
  stats,
}: {
  apps: WebApplicationSummary[];
  stats: Pick<WebStats, 'totalWebApplications' | 'activeWebApplications'>;
}) {
  const actions = useCallback(
    (a: WebApplicationSummary) => (
      <Group gap={4} justify="flex-end" wrap="nowrap">
        <Tooltip label="Edit">
          <ActionIcon
            variant="subtle"
            component={Link}
            to={`/web/applications?edit=${encodeURIComponent(a.name)}`}
            aria-label={`Edit ${a.name}`}
          >
            <IconPencil size={18} aria-hidden />
          </ActionIcon>
        </Tooltip>
        <Tooltip label="View">
          <ActionIcon
            variant="subtle"
            component={Link}
            to={`/web/applications?app=${encodeURIComponent(a.name)}`}
            aria-label={`View ${a.name}`}
          >
            <IconEye size={18} aria-hidden />
          </ActionIcon>
        </Tooltip>
      </Group>
    ),
    [],
  );
  const total = stats.totalWebApplications;
  return (
    <Card withBorder radius="md" padding="md" component="section" aria-labelledby="web-apps-title">
      <Group justify="space-between" mb="sm" wrap="wrap" gap="xs">
        <Title order={2} size="h4" id="web-apps-title">
          Web Applications
        </Title>
        <Text size="sm" c="dimmed" data-testid="web-apps-counts">
          {formatWebNumber(total)} total · {formatWebNumber(stats.activeWebApplications)} active
        </Text>
      </Group>
      <AppTable
        label="Web Applications"
        apps={apps}
        emptyText={appMessages.empty}
        lastDeployed={false}
        actions={actions}
      />
      {total > WEB_DASHBOARD_APPS && (
        <Anchor component={Link} to="/web/applications" size="sm" mt="xs" display="inline-block">
          All {formatWebNumber(total)} applications
        </Anchor>
      )}
    </Card>
  );
}
