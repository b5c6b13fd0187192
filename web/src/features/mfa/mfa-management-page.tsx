import { appliesToLabel, mfaRoutes, type MfaPolicy, type MfaUser } from '@mailroom/contract/mfa';
import {
  ActionIcon,
  Button,
  Card,
  Group,
  Select,
  Switch,
  Table,
  Tabs,
  Text,
  TextInput,
  Tooltip,
} from '@mantine/core';
import { IconEdit, IconPlus, IconRefresh, IconSearch, IconTrash, IconUserPlus } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { apiCall, errorMessage } from '../../api/client.ts';
import { LoadState } from '../../components/load-state.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { StatusBadge } from '../../components/status-badge.tsx';
import { AccountModal } from './account-modal.tsx';
import { CONSOLE_ACCOUNTS_KEY, ConsoleAccounts, useDomainOptions } from './console-accounts.tsx';
import { mfaStateOf, when } from './mfa-format.ts';
import { PolicyModal } from './policy-modal.tsx';
import { runAction } from './run-action.ts';
import { useInvalidateMfa, useMfaManagement } from './use-mfa-data.ts';
import { UserDevicesModal } from './user-devices-modal.tsx';
import { DevicesTable } from './devices-table.tsx';
import { useMfaUserByEmail } from './use-mfa-users.ts';
import { UsersPanel, useUserList } from './users-panel.tsx';

const BREADCRUMBS = [
  { label: 'Dashboard', to: '/dashboard' },
  { label: 'MFA Management', to: '/mfa' },
  { label: 'Management' },
];
const DEVICE_FILTERS = ['All', 'Active', 'Inactive', 'TOTP', 'SMS', 'Hardware Token'];

export default function MfaManagementPage() {
  const data = useMfaManagement();
  const invalidate = useInvalidateMfa();
  const [tab, setTab] = useState<string | null>('users');
  const users = useUserList();
  const [deviceFilter, setDeviceFilter] = useState('All');
  const [deviceSearch, setDeviceSearch] = useState('');
  const [viewing, setViewing] = useState<MfaUser | null>(null);
  // A device's owner is read from the server (the users list holds one page only).
  const [ownerOf, setOwnerOf] = useState<string | null>(null);
  const owner = useMfaUserByEmail(ownerOf);
  const [policyModal, setPolicyModal] = useState<{ open: boolean; policy: MfaPolicy | null }>({
    open: false,
    policy: null,
  });
  const [accountOpen, setAccountOpen] = useState(false);
  const domainOptions = useDomainOptions();
  const queryClient = useQueryClient();
  const [dismissed, setDismissed] = useState(false);

  const dq = deviceSearch.trim().toLowerCase();
  const devices = (data.devices ?? []).filter(
    (d) =>
      (deviceFilter === 'All' ||
        (deviceFilter === 'Active' && d.status === 'active') ||
        (deviceFilter === 'Inactive' && d.status !== 'active') ||
        d.deviceType === deviceFilter) &&
      (!dq || d.deviceName.toLowerCase().includes(dq) || d.userEmail.includes(dq)),
  );
  const policies = data.policies ?? [];

  const toggleUser = (u: MfaUser) => {
    const on = mfaStateOf(u) !== 'disabled';
    void runAction({
      confirm: {
        title: on ? 'Disable MFA' : 'Enable MFA for User',
        message: on
          ? `Remove every factor and backup code of ${u.email}? Their sessions end.`
          : `${u.email} will have to enrol a second factor at the next sign-in.`,
        confirmLabel: on ? 'Disable' : 'Enable',
        danger: on,
      },
      run: () => apiCall(on ? mfaRoutes.disable : mfaRoutes.enable, { body: { email: u.email } }),
      success: on ? 'MFA disabled' : 'MFA enabled',
      after: invalidate,
    });
  };

  return (
    <>
      <PageHeader
        title="MFA Management"
        breadcrumbs={BREADCRUMBS}
        subtitle="Users, devices and policies"
        actions={
          <>
            <Button
              variant="default"
              leftSection={<IconUserPlus size={16} aria-hidden />}
              onClick={() => setAccountOpen(true)}
            >
              Add account
            </Button>
            <Button
              variant="default"
              leftSection={<IconRefresh size={16} aria-hidden />}
              loading={data.loading}
              onClick={() => void Promise.all([data.refetch(), users.list.refetch()])}
            >
              Refresh
            </Button>
          </>
        }
      />
      <LoadState
        loading={data.pending && !data.error}
        error={data.error && !dismissed ? errorMessage(data.error) : null}
        errorTitle="Failed to load MFA management data"
        onRetry={() => {
          setDismissed(false);
          void data.refetch();
        }}
        onDismiss={() => setDismissed(true)}
      >
        <Card withBorder radius="md">
          <Tabs value={tab} onChange={setTab}>
            <Tabs.List>
              <Tabs.Tab value="users">
                Users
                {users.list.data && !users.list.isPlaceholderData ? ` (${users.total.toLocaleString()})` : ''}
              </Tabs.Tab>
              <Tabs.Tab value="devices">Devices ({data.devices?.length ?? 0})</Tabs.Tab>
              <Tabs.Tab value="policies">Policies ({policies.length})</Tabs.Tab>
              <Tabs.Tab value="accounts">Console accounts</Tabs.Tab>
            </Tabs.List>
            <Tabs.Panel value="accounts" pt="md">
              {tab === 'accounts' && <ConsoleAccounts />}
            </Tabs.Panel>

            <Tabs.Panel value="users" pt="md">
              <UsersPanel users={users} onView={setViewing} onToggle={toggleUser} />
            </Tabs.Panel>

            <Tabs.Panel value="devices" pt="md">
              <Group mb="sm" wrap="wrap">
                <Select
                  aria-label="Filter devices"
                  data={DEVICE_FILTERS}
                  value={deviceFilter}
                  onChange={(v) => setDeviceFilter(v ?? 'All')}
                  allowDeselect={false}
                  w={180}
                />
                <TextInput
                  aria-label="Search devices"
                  placeholder="Search by device name or user email"
                  leftSection={<IconSearch size={16} aria-hidden />}
                  value={deviceSearch}
                  onChange={(e) => setDeviceSearch(e.currentTarget.value)}
                  style={{ flex: 1, minWidth: 200 }}
                />
              </Group>
              <DevicesTable
                devices={devices}
                onView={(d) => setOwnerOf(d.userEmail)}
                onRevoke={(d) =>
                  void runAction({
                    confirm: {
                      title: 'Revoke device',
                      message: `Revoke ${d.deviceName} of ${d.userEmail}? Their sessions end.`,
                      confirmLabel: 'Revoke',
                      danger: true,
                    },
                    run: () => apiCall(mfaRoutes.revokeDevice, { params: { id: d.id } }),
                    success: 'Device revoked',
                    after: invalidate,
                  })
                }
              />
            </Tabs.Panel>

            <Tabs.Panel value="policies" pt="md">
              <Group justify="flex-end" mb="sm">
                <Button
                  leftSection={<IconPlus size={16} aria-hidden />}
                  onClick={() => setPolicyModal({ open: true, policy: null })}
                >
                  Add Policy
                </Button>
              </Group>
              {policies.length === 0 ? (
                <Text c="dimmed" size="sm" ta="center" py="md">
                  No policies found
                </Text>
              ) : (
                <Table.ScrollContainer minWidth={900}>
                  <Table verticalSpacing="xs" highlightOnHover>
                    <Table.Thead>
                      <Table.Tr>
                        <Table.Th>Policy Name</Table.Th>
                        <Table.Th>Description</Table.Th>
                        <Table.Th>Status</Table.Th>
                        <Table.Th>Methods</Table.Th>
                        <Table.Th>Backup Codes</Table.Th>
                        <Table.Th>Session Timeout</Table.Th>
                        <Table.Th>Last Modified</Table.Th>
                        <Table.Th>Actions</Table.Th>
                      </Table.Tr>
                    </Table.Thead>
                    <Table.Tbody>
                      {policies.map((p) => (
                        <Table.Tr key={p.id}>
                          <Table.Td>
                            <Text size="sm" fw={500}>
                              {p.name}
                            </Text>
                            <Text size="xs" c="dimmed">
                              {appliesToLabel(p.appliesTo)}
                              {p.requireMfa ? ' · MFA required' : ''}
                            </Text>
                          </Table.Td>
                          <Table.Td>{p.description}</Table.Td>
                          <Table.Td>
                            <StatusBadge
                              status={p.enabled ? 'enabled' : 'disabled'}
                              label={p.enabled ? 'Enabled' : 'Disabled'}
                            />
                          </Table.Td>
                          <Table.Td>{p.allowedMethods.join(', ')}</Table.Td>
                          <Table.Td>{p.backupCodesEnabled ? p.backupCodesCount : 'Off'}</Table.Td>
                          <Table.Td>{p.sessionTimeout}s</Table.Td>
                          <Table.Td>{when(p.lastModified)}</Table.Td>
                          <Table.Td>
                            <Group gap={4} wrap="nowrap">
                              <Tooltip label="Edit">
                                <ActionIcon
                                  variant="subtle"
                                  aria-label={`Edit ${p.name}`}
                                  onClick={() => setPolicyModal({ open: true, policy: p })}
                                >
                                  <IconEdit size={16} aria-hidden />
                                </ActionIcon>
                              </Tooltip>
                              <Switch
                                size="sm"
                                aria-label={`Policy ${p.name} enabled`}
                                checked={p.enabled}
                                onChange={() =>
                                  void runAction({
                                    confirm: {
                                      title: p.enabled ? 'Disable policy' : 'Enable policy',
                                      message: `${p.enabled ? 'Disable' : 'Enable'} the policy ${p.name}?`,
                                    },
                                    run: () =>
                                      apiCall(mfaRoutes.updatePolicy, {
                                        params: { id: p.id },
                                        body: { ...p, enabled: !p.enabled },
                                      }),
                                    success: p.enabled ? 'Policy disabled' : 'Policy enabled',
                                    after: invalidate,
                                  })
                                }
                              />
                              <Tooltip label="Delete">
                                <ActionIcon
                                  variant="subtle"
                                  color="red"
                                  aria-label={`Delete ${p.name}`}
                                  onClick={() =>
                                    void runAction({
                                      confirm: {
                                        title: 'Delete policy',
                                        message: `Delete the policy ${p.name}?`,
                                        confirmLabel: 'Delete',
                                        danger: true,
                                      },
                                      run: () => apiCall(mfaRoutes.deletePolicy, { params: { id: p.id } }),
                                      success: 'Policy deleted',
                                      after: invalidate,
                                    })
                                  }
                                >
                                  <IconTrash size={16} aria-hidden />
                                </ActionIcon>
                              </Tooltip>
                            </Group>
                          </Table.Td>
                        </Table.Tr>
                      ))}
                    </Table.Tbody>
                  </Table>
                </Table.ScrollContainer>
              )}
            </Tabs.Panel>
          </Tabs>
        </Card>
      </LoadState>
      <UserDevicesModal
        user={viewing ?? owner}
        onClose={() => {
          setViewing(null);
          setOwnerOf(null);
        }}
      />
      <PolicyModal
        opened={policyModal.open}
        policy={policyModal.policy}
        onClose={() => setPolicyModal({ open: false, policy: null })}
        onSave={async (v) => {
          if (policyModal.policy)
            await apiCall(mfaRoutes.updatePolicy, { params: { id: policyModal.policy.id }, body: v });
          else await apiCall(mfaRoutes.createPolicy, { body: v });
          await invalidate();
        }}
      />
      <AccountModal
        opened={accountOpen}
        domainOptions={domainOptions}
        onClose={() => setAccountOpen(false)}
        onDone={() => {
          void invalidate();
          void queryClient.invalidateQueries({ queryKey: CONSOLE_ACCOUNTS_KEY });
        }}
      />
    </>
  );
}
