import { Anchor, Button, SimpleGrid, Tabs, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconArchive, IconFileText, IconPackage, IconRefresh, IconSettings } from '@tabler/icons-react';
import { type UseQueryResult, useQueryClient } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { errorMessage } from '../../api/client.ts';
import { LoadState } from '../../components/load-state.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { StatCard } from '../../components/stat-card.tsx';
import { formatBytes } from '../../lib/format.ts';
import { BackupsTab } from './components/backups-tab.tsx';
import { ClearLogsCard, useLogFiles } from './components/clear-logs.tsx';
import { SettingsModal } from './components/settings-modal.tsx';
import { SettingsTab } from './components/settings-tab.tsx';
import { UpdatesSection } from './components/updates-section.tsx';
import { WebhooksTab } from './components/webhooks-tab.tsx';
import { LogsTab } from './monitoring/logs-tab.tsx';
import { useJobRunner } from './use-job-runner.ts';
import { systemKeys, useBackups, useSystemSettings, useUpdates } from './use-system-admin.ts';

/** One tab's own loading and error state. */
function PartLoad({
  query,
  title,
  children,
}: {
  query: UseQueryResult<unknown>;
  title: string;
  children: ReactNode;
}) {
  return (
    <LoadState
      loading={query.isPending}
      error={query.error ? errorMessage(query.error) : null}
      errorTitle={title}
      onRetry={() => void query.refetch()}
    >
      {children}
    </LoadState>
  );
}

/** System Management (spec §2.10): updates, settings, backups, alert webhooks. */
export default function SystemManagementPage() {
  const qc = useQueryClient();
  const updates = useUpdates();
  const backups = useBackups();
  const settings = useSystemSettings();
  const jobs = useJobRunner();
  const logFiles = useLogFiles();
  const [modal, modalCtl] = useDisclosure(false);
  // The updates table shows its own loader (apt takes seconds); Refresh spins for the rest.
  const fetching = backups.isFetching || settings.isFetching;
  const refresh = () => void qc.invalidateQueries({ queryKey: systemKeys.all });

  const pending = updates.data?.updates.filter((u) => !u.installed) ?? [];
  // The server answers at once; before its first reading of apt is done it has no list to count.
  const listed = !!updates.data && (!!updates.data.readAt || !updates.data.refreshing);
  const security = pending.filter((u) => u.priority === 'security').length;
  const modified = settings.data?.settings.filter((s) => s.modified).length ?? 0;
  const activeBackups = backups.data?.backups.filter((b) => b.status === 'active').length ?? 0;
  const completed = backups.data?.backups.filter((b) => b.status === 'completed').length ?? 0;

  return (
    <>
      <PageHeader
        title="System Management"
        subtitle="Updates, settings, backups and alert delivery"
        breadcrumbs={[
          { label: 'Dashboard', to: '/dashboard' },
          { label: 'System Administration', to: '/system' },
          { label: 'Management' },
        ]}
        actions={
          <>
            <Button
              variant="default"
              leftSection={<IconRefresh size={16} aria-hidden />}
              loading={fetching}
              disabled={fetching}
              onClick={refresh}
            >
              Refresh
            </Button>
            <Button
              leftSection={<IconSettings size={16} aria-hidden />}
              onClick={modalCtl.open}
              disabled={!settings.data}
            >
              System Settings
            </Button>
          </>
        }
      />
      {/* Each card and tab shows its own data as it arrives: none waits for another (apt takes seconds). */}
      <>
        <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }} mb="md">
          <StatCard
            title="Available Updates"
            value={listed ? pending.length : '…'}
            caption={listed ? `${security} security` : 'Reading the package lists'}
            icon={<IconPackage />}
            color="red"
          />
          <StatCard
            title="Settings"
            value={settings.data ? settings.data.settings.length : '…'}
            caption={settings.data ? `${modified} modified` : 'Loading'}
            icon={<IconSettings />}
          />
          <StatCard
            title="Backups"
            value={backups.data ? completed : '…'}
            caption={
              backups.data
                ? `${activeBackups} active${backups.data.lastVerified ? ` · last verified ${new Date(backups.data.lastVerified.at).toLocaleDateString()}` : ''}`
                : 'Loading'
            }
            icon={<IconArchive />}
            color="green"
          />
          <StatCard
            title="Logs"
            value={logFiles.data ? logFiles.data.files.length : '…'}
            caption={logFiles.data ? `${formatBytes(logFiles.data.totalBytes)} in log files` : 'Measuring'}
            icon={<IconFileText />}
            color="gray"
          />
        </SimpleGrid>
        <Tabs defaultValue="updates" keepMounted={false}>
          <Tabs.List mb="md">
            <Tabs.Tab value="updates">System Updates ({pending.length})</Tabs.Tab>
            <Tabs.Tab value="settings">System Settings ({settings.data?.settings.length ?? 0})</Tabs.Tab>
            <Tabs.Tab value="backups">System Backups ({backups.data?.backups.length ?? 0})</Tabs.Tab>
            <Tabs.Tab value="webhooks">Alert Webhooks</Tabs.Tab>
            <Tabs.Tab value="logs">System Logs</Tabs.Tab>
          </Tabs.List>
          <Tabs.Panel value="updates">
            <UpdatesSection query={updates} job={jobs.job} run={jobs.run} manage />
          </Tabs.Panel>
          <Tabs.Panel value="settings">
            <PartLoad query={settings} title="Failed to load system management data">
              {settings.data && <SettingsTab data={settings.data} />}
            </PartLoad>
          </Tabs.Panel>
          <Tabs.Panel value="backups">
            <PartLoad query={backups} title="Failed to load system management data">
              {backups.data && <BackupsTab data={backups.data} job={jobs.job} run={jobs.run} />}
            </PartLoad>
          </Tabs.Panel>
          <Tabs.Panel value="webhooks">
            <WebhooksTab />
          </Tabs.Panel>
          <Tabs.Panel value="logs">
            <ClearLogsCard />
            <LogsTab every={false} />
            <Text size="xs" c="dimmed" mt="xs">
              The live log stream is on{' '}
              <Anchor component={Link} to="/monitoring" underline="always">
                Real-time Monitoring
              </Anchor>
              .
            </Text>
          </Tabs.Panel>
        </Tabs>
      </>
      {settings.data && <SettingsModal opened={modal} onClose={modalCtl.close} saved={settings.data} />}
    </>
  );
}
