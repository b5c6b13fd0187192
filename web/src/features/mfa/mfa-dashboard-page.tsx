import { appliesToLabel, type MfaUser } from '@mailroom/contract/mfa';
import {
  Button,
  Card,
  Grid,
  Group,
  List,
  SegmentedControl,
  SimpleGrid,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import {
  IconChartBar,
  IconDeviceMobile,
  IconFileDownload,
  IconLifebuoy,
  IconRefresh,
  IconSettings,
  IconShieldCheck,
  IconUsers,
} from '@tabler/icons-react';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { errorMessage } from '../../api/client.ts';
import { LoadState } from '../../components/load-state.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { StatCard } from '../../components/stat-card.tsx';
import { StatusBadge } from '../../components/status-badge.tsx';
import { ACTION_LABELS, MFA_STATE_LABEL, mfaStateOf, percent, when } from './mfa-format.ts';
import { UserDevicesModal } from './user-devices-modal.tsx';
import { UsersTable } from './users-table.tsx';
import { useMfaDashboard } from './use-mfa-data.ts';

const BREADCRUMBS = [{ label: 'Dashboard', to: '/dashboard' }, { label: 'MFA Management' }];
type Filter = 'all' | 'enabled' | 'disabled';

/** The users table as CSV, built from the loaded report (Generate Report). */
function downloadReport(users: MfaUser[]): void {
  const esc = (v: string) => (/[",\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v);
  const rows = [
    ['User', 'Email', 'MFA Status', 'Method', 'Devices', 'Backup Codes', 'Last MFA Login', 'Status'],
    ...users.map((u) => [
      u.name,
      u.email,
      MFA_STATE_LABEL[mfaStateOf(u)],
      u.mfaMethod ?? '',
      String(u.mfaDevicesCount),
      String(u.backupCodesCount),
      u.lastMfaLogin ?? '',
      u.status,
    ]),
  ];
  const blob = new Blob([rows.map((r) => r.map(esc).join(',')).join('\n') + '\n'], { type: 'text/csv' });
  const a = document.createElement('a');
  a.href = URL.createObjectURL(blob);
  a.download = `mfa-report-${new Date().toISOString().slice(0, 10)}.csv`;
  a.click();
  URL.revokeObjectURL(a.href);
}

export default function MfaDashboardPage() {
  const data = useMfaDashboard();
  const navigate = useNavigate();
  const [filter, setFilter] = useState<Filter>('all');
  const [viewing, setViewing] = useState<MfaUser | null>(null);
  const [dismissed, setDismissed] = useState(false);
  const d = data.dashboard;
  const s = d?.stats;
  const users = (d?.users ?? []).filter((u) => filter === 'all' || (filter === 'enabled') === u.mfaEnabled);

  return (
    <>
      <PageHeader
        title="Multi-Factor Authentication"
        breadcrumbs={BREADCRUMBS}
        subtitle="Second factors, policies and recent sign-in activity"
        actions={
          <>
            <Button
              component={Link}
              to="/account"
              variant="default"
              leftSection={<IconShieldCheck size={16} aria-hidden />}
            >
              My account security
            </Button>
            <Button
              variant="default"
              leftSection={<IconRefresh size={16} aria-hidden />}
              loading={data.loading}
              onClick={() => void data.refetch()}
            >
              Refresh
            </Button>
          </>
        }
      />
      <LoadState
        loading={data.pending && !data.error}
        error={data.error && !dismissed ? errorMessage(data.error) : null}
        errorTitle="Failed to load MFA data"
        onRetry={() => {
          setDismissed(false);
          void data.refetch();
        }}
        onDismiss={() => setDismissed(true)}
      >
        {d && s && (
          <Stack gap="md">
            <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }}>
              <StatCard title="Total Users" value={s.totalUsers} icon={<IconUsers size={24} />} />
              <StatCard
                title="MFA Enabled"
                value={s.mfaEnabledUsers}
                caption={`${s.totalUsers ? ((s.mfaEnabledUsers / s.totalUsers) * 100).toFixed(0) : 0}% of users`}
                icon={<IconShieldCheck size={24} />}
                color="green"
              />
              <StatCard
                title="MFA Devices"
                value={s.totalMfaDevices}
                caption={`${s.activeMfaDevices} active`}
                icon={<IconDeviceMobile size={24} />}
                color="violet"
              />
              <StatCard
                title="Success Rate"
                value={percent(s.mfaSuccessRate)}
                caption={`Failure rate ${percent(s.mfaFailureRate)}`}
                icon={<IconChartBar size={24} />}
                color="teal"
              />
            </SimpleGrid>
            <Grid>
              <Grid.Col span={{ base: 12, md: 4 }}>
                <Card withBorder radius="md" h="100%" component="section" aria-labelledby="policies-title">
                  <Title order={2} size="h4" id="policies-title" mb="sm">
                    MFA Policies
                  </Title>
                  {d.policies.length === 0 ? (
                    <Text size="sm" c="dimmed">
                      No policy yet: MFA is optional for everyone.
                    </Text>
                  ) : (
                    <Stack gap="xs">
                      {d.policies.map((p) => (
                        <div key={p.id}>
                          <Group justify="space-between" wrap="nowrap">
                            <Text size="sm" fw={500}>
                              {p.name}
                            </Text>
                            <StatusBadge
                              status={p.enabled ? 'enabled' : 'disabled'}
                              label={p.enabled ? 'Enabled' : 'Disabled'}
                            />
                          </Group>
                          <Text size="xs" c="dimmed">
                            {appliesToLabel(p.appliesTo)} · {p.allowedMethods.join(', ')}
                          </Text>
                        </div>
                      ))}
                    </Stack>
                  )}
                </Card>
              </Grid.Col>
              <Grid.Col span={{ base: 12, md: 4 }}>
                <Card withBorder radius="md" h="100%" component="section" aria-labelledby="qa-title">
                  <Title order={2} size="h4" id="qa-title" mb="sm">
                    Quick Actions
                  </Title>
                  <Stack gap="xs">
                    <Button
                      component={Link}
                      to="/mfa/management"
                      variant="light"
                      leftSection={<IconSettings size={16} aria-hidden />}
                    >
                      Manage MFA Settings
                    </Button>
                    <Button
                      component={Link}
                      to="/mfa/recovery"
                      variant="light"
                      leftSection={<IconLifebuoy size={16} aria-hidden />}
                    >
                      Recovery Options
                    </Button>
                    <Button
                      variant="light"
                      leftSection={<IconFileDownload size={16} aria-hidden />}
                      onClick={() => downloadReport(d.users)}
                    >
                      Generate Report
                    </Button>
                  </Stack>
                </Card>
              </Grid.Col>
              <Grid.Col span={{ base: 12, md: 4 }}>
                <Card withBorder radius="md" h="100%" component="section" aria-labelledby="status-title">
                  <Title order={2} size="h4" id="status-title" mb="sm">
                    MFA Status
                  </Title>
                  <Stack gap={6}>
                    <Group justify="space-between">
                      <Text size="sm">MFA Service</Text>
                      <StatusBadge
                        status={data.status?.serviceActive ? 'active' : 'error'}
                        label={data.status?.serviceActive ? 'Active' : 'Down'}
                      />
                    </Group>
                    {data.status?.methods.map((m) => (
                      <Group key={m.name} justify="space-between" wrap="nowrap">
                        <Text size="sm">{m.name}</Text>
                        <StatusBadge
                          status={m.available ? 'enabled' : 'disabled'}
                          label={m.available ? 'Enabled' : (m.note ?? 'Unavailable')}
                        />
                      </Group>
                    ))}
                    <Group justify="space-between">
                      <Text size="sm">Last Activity</Text>
                      <Text size="sm">{when(s.lastMfaActivity)}</Text>
                    </Group>
                  </Stack>
                </Card>
              </Grid.Col>
            </Grid>
            <Card withBorder radius="md" component="section" aria-labelledby="users-title">
              <Group justify="space-between" mb="sm" wrap="wrap">
                <Title order={2} size="h4" id="users-title">
                  Users with MFA
                </Title>
                <SegmentedControl
                  aria-label="Filter users"
                  value={filter}
                  onChange={(v) => setFilter(v as Filter)}
                  data={[
                    { value: 'all', label: 'All Users' },
                    { value: 'enabled', label: 'MFA Enabled' },
                    { value: 'disabled', label: 'MFA Disabled' },
                  ]}
                />
              </Group>
              <UsersTable
                users={users}
                withStatus
                onManage={() => void navigate('/mfa/management')}
                onView={setViewing}
              />
            </Card>
            <Card withBorder radius="md" component="section" aria-labelledby="activity-title">
              <Title order={2} size="h4" id="activity-title" mb="sm">
                Recent MFA Activity
              </Title>
              {d.activity.length === 0 ? (
                <Text size="sm" c="dimmed">
                  No recent activity
                </Text>
              ) : (
                <List listStyleType="none" spacing="xs">
                  {d.activity.map((a) => (
                    <List.Item key={a.id}>
                      <Group justify="space-between" wrap="wrap" gap="xs">
                        <div>
                          <Text size="sm" fw={500}>
                            {a.userEmail}
                          </Text>
                          <Text size="xs" c="dimmed">
                            {ACTION_LABELS[a.action] ?? a.action} · {when(a.timestamp)} ·{' '}
                            {a.ipAddress ?? 'unknown address'}
                          </Text>
                        </div>
                        <StatusBadge status={a.status} />
                      </Group>
                    </List.Item>
                  ))}
                </List>
              )}
            </Card>
          </Stack>
        )}
      </LoadState>
      <UserDevicesModal user={viewing} onClose={() => setViewing(null)} />
    </>
  );
}
