import type { MfaPolicy, MfaUser } from '@mailroom/contract/mfa';
import { Button, Card, Group, Select, Tabs, TextInput } from '@mantine/core';
import { IconPlus, IconRefresh, IconSearch, IconUserPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { errorMessage } from '../../api/client.ts';
import { LoadState } from '../../components/load-state.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { AccountModal } from './account-modal.tsx';
import { ConsoleAccounts, useDomainOptions } from './console-accounts.tsx';
import { mfaStateOf } from './mfa-format.ts';
import { PoliciesTable } from './policies-table.tsx';
import { PolicyModal } from './policy-modal.tsx';
import { runAction } from './run-action.ts';
import { useDeletePolicy } from './use-delete-policy.ts';
import { useRevokeDevice } from './use-revoke-device.ts';
import { useSavePolicy } from './use-save-policy.ts';
import { useSetUserMfa } from './use-set-user-mfa.ts';
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
  const savePolicy = useSavePolicy();
  const deletePolicy = useDeletePolicy();
  const domainOptions = useDomainOptions();
  const setUserMfa = useSetUserMfa();
  const revokeDevice = useRevokeDevice();
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
      run: () => setUserMfa.mutateAsync({ email: u.email, on: !on }),
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
                    run: () => revokeDevice.mutateAsync(d.id),
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
              <PoliciesTable
                policies={policies}
                onEdit={(p) => setPolicyModal({ open: true, policy: p })}
                onToggle={(p) =>
                  void runAction({
                    confirm: {
                      title: p.enabled ? 'Disable policy' : 'Enable policy',
                      message: `${p.enabled ? 'Disable' : 'Enable'} the policy ${p.name}?`,
                    },
                    run: () => savePolicy.mutateAsync({ id: p.id, body: { ...p, enabled: !p.enabled } }),
                    success: p.enabled ? 'Policy disabled' : 'Policy enabled',
                    after: invalidate,
                  })
                }
                onDelete={(p) =>
                  void runAction({
                    confirm: {
                      title: 'Delete policy',
                      message: `Delete the policy ${p.name}?`,
                      confirmLabel: 'Delete',
                      danger: true,
                    },
                    run: () => deletePolicy.mutateAsync(p.id),
                    success: 'Policy deleted',
                    after: invalidate,
                  })
                }
              />
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
          await savePolicy.mutateAsync({ id: policyModal.policy?.id ?? null, body: v });
        }}
      />
      <AccountModal
        opened={accountOpen}
        domainOptions={domainOptions}
        onClose={() => setAccountOpen(false)}
        onDone={() => void invalidate()}
      />
    </>
  );
}
