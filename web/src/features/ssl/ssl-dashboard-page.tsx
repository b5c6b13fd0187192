import { sslMessages } from '@mailroom/contract/ssl';
import { Button, Card, Grid, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import {
  IconAlertTriangle,
  IconCertificate,
  IconCircleCheck,
  IconClockExclamation,
  IconSearch,
} from '@tabler/icons-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { errorMessage } from '../../api/client.ts';
import { LoadState } from '../../components/load-state.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { StatCard } from '../../components/stat-card.tsx';
import { formatRelativeTime } from '../../lib/format.ts';
import { CertificateDetailsModal } from './components/certificate-details-modal.tsx';
import { CertificateTable } from './components/certificate-table.tsx';
import { useCertificateActions } from './use-certificate-actions.ts';
import { useSslDashboard } from './use-ssl-dashboard.ts';

export default function SslDashboardPage() {
  const dashboard = useSslDashboard();
  const actions = useCertificateActions();
  const [search, setSearch] = useState('');
  const [dismissed, setDismissed] = useState(false);
  const d = dashboard.data;
  const term = search.trim().toLowerCase();
  const shown = (d?.certificates ?? []).filter(
    (c) => !term || [c.domain, c.issuer, c.status].some((v) => v.toLowerCase().includes(term)),
  );
  return (
    <>
      <PageHeader
        title="SSL Management"
        breadcrumbs={[{ label: 'Dashboard', to: '/dashboard' }, { label: 'SSL Management' }]}
        subtitle="Certificates, their expiry and renewal"
      />
      <LoadState
        loading={dashboard.isPending}
        error={dashboard.error && !dismissed ? errorMessage(dashboard.error) : null}
        errorTitle={sslMessages.loadCertificates}
        loadingLabel="Loading SSL certificates..."
        onRetry={() => {
          setDismissed(false);
          void dashboard.refetch();
        }}
        onDismiss={() => setDismissed(true)}
      >
        {d && (
          <Stack gap="md">
            <SimpleGrid cols={{ base: 1, xs: 2, lg: 4 }}>
              <StatCard
                title="Total Certificates"
                value={d.stats.totalCertificates}
                caption="All domains"
                icon={<IconCertificate />}
              />
              <StatCard
                title="Valid Certificates"
                value={d.stats.validCertificates}
                caption={
                  d.stats.selfSignedCertificates > 0
                    ? `${d.stats.selfSignedCertificates} self-signed: not trusted by clients`
                    : 'No issues'
                }
                icon={<IconCircleCheck />}
                color="green"
              />
              <StatCard
                title="Expiring Soon"
                value={d.stats.expiringSoon}
                caption="Requires attention"
                icon={<IconClockExclamation />}
                color="yellow"
              />
              <StatCard
                title="Expired Certificates"
                value={d.stats.expiredCertificates}
                caption="Critical issue"
                icon={<IconAlertTriangle />}
                color="red"
              />
            </SimpleGrid>
            <Grid gutter="md">
              {/* The table takes the full width: beside the side cards its Actions column was cut off at 1366 px (issue 22). */}
              <Grid.Col span={12}>
                <Card withBorder padding="md" radius="md">
                  <Stack gap="sm">
                    <Title order={2} size="h4">
                      SSL Certificates
                    </Title>
                    <TextInput
                      aria-label="Search certificates"
                      placeholder="Search by domain, issuer or status"
                      leftSection={<IconSearch size={16} aria-hidden />}
                      value={search}
                      onChange={(e) => setSearch(e.currentTarget.value)}
                    />
                    <CertificateTable
                      certificates={shown}
                      onView={actions.view}
                      onRenew={(c) => actions.renew(c.id, c.domain)}
                      onDelete={actions.remove}
                      empty={sslMessages.noCertificates}
                    />
                  </Stack>
                </Card>
              </Grid.Col>
              <Grid.Col span={12}>
                <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
                  <Card withBorder padding="md" radius="md">
                    <Title order={2} size="h4" mb="sm">
                      Quick Actions
                    </Title>
                    <Stack gap="xs">
                      <Button component={Link} to="/ssl/certificates" variant="light">
                        Manage Certificates
                      </Button>
                      <Button component={Link} to="/ssl/generate" variant="light">
                        Generate Certificate
                      </Button>
                      <Button component={Link} to="/ssl/settings" variant="light">
                        SSL Settings
                      </Button>
                    </Stack>
                  </Card>
                  <Card withBorder padding="md" radius="md">
                    <Title order={2} size="h4" mb="sm">
                      Recent SSL Activity
                    </Title>
                    {d.activity.length === 0 ? (
                      <Text c="dimmed" size="sm">
                        {sslMessages.noActivity}
                      </Text>
                    ) : (
                      <Stack gap="xs" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
                        {d.activity.map((a, i) => (
                          <li key={`${a.timestamp}-${i}`}>
                            <Text size="sm">{a.description}</Text>
                            <Text size="xs" c="dimmed">
                              {formatRelativeTime(a.timestamp)}
                            </Text>
                          </li>
                        ))}
                      </Stack>
                    )}
                  </Card>
                </SimpleGrid>
              </Grid.Col>
            </Grid>
          </Stack>
        )}
      </LoadState>
      <CertificateDetailsModal
        id={actions.viewing?.id ?? null}
        domain={actions.viewing?.domain ?? ''}
        onClose={actions.closeView}
        onRenew={(id, domain) => {
          actions.closeView();
          actions.renew(id, domain);
        }}
      />
    </>
  );
}
