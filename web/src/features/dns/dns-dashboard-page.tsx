import { Button, Grid, Stack } from '@mantine/core';
import { IconRefresh } from '@tabler/icons-react';
import { errorMessage } from '../../api/client.ts';
import { LoadState } from '../../components/load-state.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { notify } from '../../lib/notifications-store.ts';
import { DnsActivity } from './components/dns-activity.tsx';
import { DnsQuickActions } from './components/dns-quick-actions.tsx';
import { DnsStatCards } from './components/dns-stat-cards.tsx';
import { DnsZonesList } from './components/dns-zones-list.tsx';
import { useDismissableError } from './use-dismissable-error.ts';
import { useDnsActivity } from './use-dns-activity.ts';
import { useDnsDashboard } from './use-dns-dashboard.ts';

export default function DnsDashboardPage() {
  const dashboard = useDnsDashboard();
  const activity = useDnsActivity();
  const failure = useDismissableError(dashboard.error ?? activity.error);
  const refreshing = dashboard.isFetching || activity.isFetching;

  const reload = async () => {
    const results = await Promise.all([dashboard.refetch(), activity.refetch()]);
    const failed = results.find((r) => r.error);
    if (failed)
      notify({ type: 'error', title: 'Failed to load DNS data', message: errorMessage(failed.error) });
    else
      notify({
        type: 'success',
        title: 'DNS data refreshed',
        message: 'Zones, counters and activity are up to date.',
      });
  };

  return (
    <>
      <PageHeader
        title="DNS Management"
        breadcrumbs={[{ label: 'Dashboard', to: '/dashboard' }, { label: 'DNS Management' }]}
        subtitle="Zones, records and the name server"
        actions={
          <Button
            leftSection={<IconRefresh size={16} aria-hidden />}
            variant="default"
            onClick={() => void reload()}
            loading={refreshing}
          >
            Refresh Data
          </Button>
        }
      />
      <LoadState
        loading={dashboard.isPending || activity.isPending}
        error={failure.message}
        errorTitle="Failed to load DNS data"
        loadingLabel="Loading DNS data..."
        onRetry={() => void reload()}
        onDismiss={failure.dismiss}
      >
        {dashboard.data && (
          <>
            <DnsStatCards data={dashboard.data} />
            <Grid gutter="md">
              <Grid.Col span={{ base: 12, md: 8 }}>
                <DnsZonesList zones={dashboard.data.zones} total={dashboard.data.totalZones} />
              </Grid.Col>
              <Grid.Col span={{ base: 12, md: 4 }}>
                <Stack gap="md">
                  <DnsQuickActions />
                  <DnsActivity entries={activity.data?.entries ?? []} />
                </Stack>
              </Grid.Col>
            </Grid>
          </>
        )}
      </LoadState>
    </>
  );
}
