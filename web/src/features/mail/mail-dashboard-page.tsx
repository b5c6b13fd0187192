import { Button, Grid, SimpleGrid, Stack, Text } from '@mantine/core';
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
import { SectionCard } from './components/section-card.tsx';
import { useMailDashboard } from './use-mail-dashboard.ts';

const BREADCRUMBS = [{ label: 'Dashboard', to: '/dashboard' }, { label: 'Mail Management' }];

/** Quick Actions that open another mail screen (View Logs opens the logs here). */
const QUICK_LINKS = [
  { to: '/mail/mailboxes', label: 'Manage Mailboxes', Icon: IconMailbox },
  { to: '/mail/aliases', label: 'Manage Aliases', Icon: IconArrowsExchange },
  { to: '/mail/settings', label: 'Mail Settings', Icon: IconSettings },
];

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
        <SectionCard title="Quick Actions" titleId="quick-actions-title">
          <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }}>
            {QUICK_LINKS.map(({ to, label, Icon }) => (
              <Button
                key={to}
                component={Link}
                to={to}
                variant="light"
                leftSection={<Icon size={16} aria-hidden />}
              >
                {label}
              </Button>
            ))}
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
        </SectionCard>
      </Stack>
      <MailLogsModal opened={logsOpen} onClose={() => setLogsOpen(false)} />
    </>
  );
}
