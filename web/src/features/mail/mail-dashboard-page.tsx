import { Button, Card, Grid, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import {
  IconArrowsExchange,
  IconFileText,
  IconMailbox,
  IconRefresh,
  IconSettings,
  IconUserCheck,
} from '@tabler/icons-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { errorMessage } from '../../api/client.ts';
import { LoadState } from '../../components/load-state.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { StatCard } from '../../components/stat-card.tsx';
import { MailLogsModal } from './components/mail-logs-modal.tsx';
import { MailServerCard } from './components/mail-server-card.tsx';
import { MailboxUsageCard } from './components/mailbox-usage-card.tsx';
import { RecentActivityCard } from './components/recent-activity-card.tsx';
import { useMailDashboard } from './use-mail-dashboard.ts';

const BREADCRUMBS = [{ label: 'Dashboard', to: '/dashboard' }, { label: 'Mail Management' }];

export default function MailDashboardPage() {
  const data = useMailDashboard();
  const [logsOpen, setLogsOpen] = useState(false);
  const [errorDismissed, setErrorDismissed] = useState(false);
  const d = data.dashboard;

  return (
    <>
      <PageHeader
        title="Mail Management"
        breadcrumbs={BREADCRUMBS}
        subtitle="Mailboxes, aliases and the mail server"
        actions={
          <Button
            variant="default"
            leftSection={<IconRefresh size={16} aria-hidden />}
            onClick={() => void data.refetch()}
          >
            Refresh
          </Button>
        }
      />
      <Stack gap="md">
        <LoadState
          loading={data.loading && !data.error}
          error={data.error && !errorDismissed ? errorMessage(data.error) : null}
          errorTitle="Failed to load mail data"
          loadingLabel="Loading mail data…"
          onRetry={() => {
            setErrorDismissed(false);
            void data.refetch();
          }}
          onDismiss={() => setErrorDismissed(true)}
        >
          {d && (
            <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }}>
              <StatCard
                title="Total Mailboxes"
                value={d.totalMailboxes.toLocaleString()}
                icon={<IconMailbox size={24} />}
              />
              <StatCard
                title="Active Mailboxes"
                value={d.activeMailboxes.toLocaleString()}
                caption="with a quota set"
                icon={<IconUserCheck size={24} />}
                color="green"
              />
              <StatCard
                title="Email Aliases"
                value={d.totalAliases.toLocaleString()}
                icon={<IconArrowsExchange size={24} />}
                color="violet"
              />
              <MailServerCard dashboard={d} />
            </SimpleGrid>
          )}
        </LoadState>
        <Grid>
          <Grid.Col span={{ base: 12, md: 6 }}>{d && <MailboxUsageCard usage={d.topUsage} />}</Grid.Col>
          <Grid.Col span={{ base: 12, md: 6 }}>
            {data.activity && <RecentActivityCard entries={data.activity.entries} />}
          </Grid.Col>
        </Grid>
        <Card withBorder radius="md" padding="md" component="section" aria-labelledby="quick-actions-title">
          <Title order={2} size="h4" mb="sm" id="quick-actions-title">
            Quick Actions
          </Title>
          <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }}>
            <Button
              component={Link}
              to="/mail/mailboxes"
              variant="light"
              leftSection={<IconMailbox size={16} aria-hidden />}
            >
              Manage Mailboxes
            </Button>
            <Button
              component={Link}
              to="/mail/aliases"
              variant="light"
              leftSection={<IconArrowsExchange size={16} aria-hidden />}
            >
              Manage Aliases
            </Button>
            <Button
              component={Link}
              to="/mail/settings"
              variant="light"
              leftSection={<IconSettings size={16} aria-hidden />}
            >
              Mail Settings
            </Button>
            <Button
              variant="light"
              leftSection={<IconFileText size={16} aria-hidden />}
              onClick={() => setLogsOpen(true)}
            >
              View Logs
            </Button>
          </SimpleGrid>
          <Text size="xs" c="dimmed" mt="sm">
            Logs shows the latest Postfix and Dovecot lines this server can read.
          </Text>
        </Card>
      </Stack>
      <MailLogsModal opened={logsOpen} onClose={() => setLogsOpen(false)} />
    </>
  );
}
