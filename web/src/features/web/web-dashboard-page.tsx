import { webMessages, type VirtualHost } from '@mailroom/contract/web';
import { Button, Card, Grid, Group, Stack, Title } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { errorMessage } from '../../api/client.ts';
import { ApplyOutcomeAlert } from '../../components/apply-outcome-alert.tsx';
import { LoadState } from '../../components/load-state.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { RefreshButton } from './components/refresh-button.tsx';
import { ServerStatusCard } from './components/server-status-card.tsx';
import { TrafficOverview } from './components/traffic-overview.tsx';
import { VhostDetailsModal } from './components/vhost-details-modal.tsx';
import { VhostFormModal, type VhostModalMode } from './components/vhost-form-modal.tsx';
import { VhostTable } from './components/vhost-table.tsx';
import { WebActivityCard } from './components/web-activity-card.tsx';
import { WebApplicationsCard } from './components/web-applications-card.tsx';
import { WebQuickActions } from './components/web-quick-actions.tsx';
import { WebStatCards } from './components/web-stat-cards.tsx';
import { useWebCapabilities } from './use-web-capabilities.ts';
import { useWebDashboard } from './use-web-dashboard.ts';

const BREADCRUMBS = [{ label: 'Dashboard', to: '/dashboard' }, { label: 'Web Management' }];

export default function WebDashboardPage() {
  const dashboard = useWebDashboard();
  const capabilities = useWebCapabilities();
  const [dismissed, setDismissed] = useState(false);
  const [modal, setModal] = useState<VhostModalMode>(null);
  const [viewing, setViewing] = useState<VirtualHost | null>(null);
  const d = dashboard.data;

  const refresh = () => {
    setDismissed(false);
    void Promise.all([dashboard.refetch(), capabilities.refetch()]);
  };

  return (
    <>
      <PageHeader
        title="Web Management"
        breadcrumbs={BREADCRUMBS}
        subtitle="Virtual hosts and the Apache web server that serves them"
        actions={<RefreshButton loading={dashboard.isFetching} onClick={refresh} />}
      />
      <LoadState
        loading={dashboard.isPending && !dismissed}
        error={dashboard.isError && !dismissed ? errorMessage(dashboard.error) : null}
        errorTitle={webMessages.dashboardLoadFailed}
        loadingLabel="Loading web management data…"
        onRetry={refresh}
        onDismiss={() => setDismissed(true)}
      >
        {d && (
          <Stack gap="md">
            <ApplyOutcomeAlert target="web" label="web server" refreshKey={dashboard.dataUpdatedAt} />
            <WebStatCards stats={d.stats} webServer={d.status.find((s) => s.name === 'Web Server')} />
            <Grid>
              <Grid.Col span={{ base: 12, md: 4 }}>
                <TrafficOverview stats={d.stats} />
              </Grid.Col>
              <Grid.Col span={{ base: 12, md: 4 }}>
                <WebQuickActions />
              </Grid.Col>
              <Grid.Col span={{ base: 12, md: 4 }}>
                <ServerStatusCard status={d.status} />
              </Grid.Col>
            </Grid>
            <Card withBorder radius="md" padding="md" component="section" aria-labelledby="web-vhosts-title">
              <Group justify="space-between" mb="sm" wrap="wrap" gap="xs">
                <Title order={2} size="h4" id="web-vhosts-title">
                  Virtual Hosts
                </Title>
                <Button
                  component={Link}
                  to="/web/vhosts"
                  size="xs"
                  leftSection={<IconPlus size={14} aria-hidden />}
                >
                  Add Virtual Host
                </Button>
              </Group>
              <VhostTable
                label="Virtual Hosts by traffic"
                vhosts={d.virtualHosts}
                emptyText={webMessages.empty}
                onEdit={(v) => setModal({ kind: 'edit', vhost: v })}
                onView={setViewing}
              />
            </Card>
            <WebApplicationsCard apps={d.applications} stats={d.stats} />
            <WebActivityCard activity={d.activity} />
          </Stack>
        )}
      </LoadState>
      <VhostFormModal mode={modal} capabilities={capabilities.data ?? null} onClose={() => setModal(null)} />
      <VhostDetailsModal vhost={viewing} onClose={() => setViewing(null)} />
    </>
  );
}
