import { appMessages, type WebApplicationSummary } from '@mailroom/contract/web';
import { ActionIcon, Anchor, Card, Group, Text, Title, Tooltip } from '@mantine/core';
import { IconEye, IconPencil } from '@tabler/icons-react';
import { useCallback } from 'react';
import { Link } from 'react-router';
import { errorMessage } from '../../../api/client.ts';
import { LoadState } from '../../../components/load-state.tsx';
import { useApps } from '../use-apps.ts';
import { formatWebNumber } from '../web-format.ts';
import { AppTable } from './app-table.tsx';

/** Rows of the dashboard's table: the first applications by name; the rest on the Applications page. */
export const DASHBOARD_APPS = 10;

const ACTIVE_QUERY = { status: 'active', limit: 1 } as const;

/**
 * The Web Applications table of the dashboard (spec 3 §2.1) from the server's list: its total and
 * active counts, the first rows with edit and view (both open them on the Applications page).
 */
export function WebApplicationsCard() {
  const list = useApps({ limit: DASHBOARD_APPS, sort: 'name' });
  const active = useApps(ACTIVE_QUERY);
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
  const total = list.data?.total;
  return (
    <Card withBorder radius="md" padding="md" component="section" aria-labelledby="web-apps-title">
      <Group justify="space-between" mb="sm" wrap="wrap" gap="xs">
        <Title order={2} size="h4" id="web-apps-title">
          Web Applications
        </Title>
        {total !== undefined && (
          <Text size="sm" c="dimmed" data-testid="web-apps-counts">
            {formatWebNumber(total)} total
            {active.data ? ` · ${formatWebNumber(active.data.total)} active` : ''}
          </Text>
        )}
      </Group>
      <LoadState
        loading={list.isPending}
        error={list.isError ? errorMessage(list.error) : null}
        errorTitle={appMessages.loadFailed}
        loadingLabel="Loading web applications…"
        onRetry={() => void Promise.all([list.refetch(), active.refetch()])}
      >
        {list.data && (
          <AppTable
            label="Web Applications"
            apps={list.data.data}
            emptyText={appMessages.empty}
            lastDeployed={false}
            actions={actions}
          />
        )}
      </LoadState>
      {total !== undefined && total > DASHBOARD_APPS && (
        <Anchor component={Link} to="/web/applications" size="sm" mt="xs" display="inline-block">
          All {formatWebNumber(total)} applications
        </Anchor>
      )}
    </Card>
  );
}
