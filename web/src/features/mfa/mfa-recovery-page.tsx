import {
  Alert,
  Button,
  Card,
  Code,
  Group,
  Modal,
  Select,
  SimpleGrid,
  Tabs,
  Text,
  TextInput,
} from '@mantine/core';
import {
  IconAlertTriangle,
  IconKey,
  IconLock,
  IconMail,
  IconRefresh,
  IconSearch,
  IconUserQuestion,
} from '@tabler/icons-react';
import { useState } from 'react';
import { errorMessage } from '../../api/client.ts';
import { useGenerateBackupCodes } from '../../api/use-generate-backup-codes.ts';
import { LoadState } from '../../components/load-state.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { StatCard } from '../../components/stat-card.tsx';
import { BackupCodesTable, LockoutsTable, RequestsTable, backupState } from './recovery-tables.tsx';
import { runAction } from './run-action.ts';
import { useApproveRecovery } from './use-approve-recovery.ts';
import { useInvalidateMfa, useMfaRecovery } from './use-mfa-data.ts';
import { useRejectRecovery } from './use-reject-recovery.ts';
import { useUnlockAccount } from './use-unlock-account.ts';

const BREADCRUMBS = [
  { label: 'Dashboard', to: '/dashboard' },
  { label: 'MFA Management', to: '/mfa' },
  { label: 'Recovery' },
];

function matches(q: string, ...fields: (string | null)[]) {
  const s = q.trim().toLowerCase();
  return !s || fields.some((f) => f?.toLowerCase().includes(s));
}

function Filters({
  label,
  options,
  filter,
  setFilter,
  search,
  setSearch,
}: {
  label: string;
  options: string[];
  filter: string;
  setFilter: (v: string) => void;
  search: string;
  setSearch: (v: string) => void;
}) {
  return (
    <Group mb="sm" wrap="wrap">
      <Select
        aria-label={`Filter ${label}`}
        data={options}
        value={filter}
        onChange={(v) => setFilter(v ?? 'All')}
        allowDeselect={false}
        w={180}
      />
      <TextInput
        aria-label={`Search ${label}`}
        placeholder="Search by user email"
        leftSection={<IconSearch size={16} aria-hidden />}
        value={search}
        onChange={(e) => setSearch(e.currentTarget.value)}
        style={{ flex: 1, minWidth: 200 }}
      />
    </Group>
  );
}

export default function MfaRecoveryPage() {
  const q = useMfaRecovery();
  const invalidate = useInvalidateMfa();
  const generateCodes = useGenerateBackupCodes();
  const approve = useApproveRecovery();
  const reject = useRejectRecovery();
  const unlock = useUnlockAccount();
  const [tab, setTab] = useState<string | null>('requests');
  const [f, setF] = useState<Record<string, string>>({
    requests: 'All',
    lockouts: 'All',
    codes: 'All',
    methods: 'All',
  });
  const [s, setS] = useState<Record<string, string>>({ requests: '', lockouts: '', codes: '', methods: '' });
  const [codes, setCodes] = useState<string[] | null>(null);
  const [genOpen, setGenOpen] = useState(false);
  const [genError, setGenError] = useState<string | null>(null);
  const [dismissed, setDismissed] = useState(false);
  const d = q.data;
  const filt = (k: string) => ({
    filter: f[k] ?? 'All',
    setFilter: (v: string) => setF((o) => ({ ...o, [k]: v })),
    search: s[k] ?? '',
    setSearch: (v: string) => setS((o) => ({ ...o, [k]: v })),
  });
  const requests = (d?.requests ?? []).filter(
    (r) =>
      (f.requests === 'All' || r.status === (f.requests ?? '').toLowerCase()) &&
      matches(s.requests ?? '', r.userEmail, r.userName),
  );
  const lockouts = (d?.lockouts ?? []).filter(
    (l) =>
      (f.lockouts === 'All' || l.status === (f.lockouts ?? '').toLowerCase()) &&
      matches(s.lockouts ?? '', l.userEmail, l.userName),
  );
  const backup = (d?.backupCodes ?? []).filter(
    (c) => (f.codes === 'All' || backupState(c) === f.codes) && matches(s.codes ?? '', c.userEmail),
  );
  const methods = (d?.recoveryMethods ?? []).filter(
    (m) =>
      (f.methods === 'All' || m.methodType === f.methods) &&
      matches(s.methods ?? '', m.userEmail, m.methodValue),
  );

  async function generate() {
    setGenError(null);
    try {
      setCodes((await generateCodes.mutateAsync()).codes);
      await invalidate();
    } catch (err) {
      setGenError(errorMessage(err));
    }
  }

  return (
    <>
      <PageHeader
        title="MFA Recovery"
        breadcrumbs={BREADCRUMBS}
        subtitle="Recovery requests, lockouts, backup codes and recovery methods"
        actions={
          <>
            <Button
              variant="default"
              leftSection={<IconKey size={16} aria-hidden />}
              onClick={() => {
                setCodes(null);
                setGenOpen(true);
              }}
            >
              Generate Backup Codes
            </Button>
            <Button
              variant="default"
              leftSection={<IconRefresh size={16} aria-hidden />}
              loading={q.isFetching}
              onClick={() => void q.refetch()}
            >
              Refresh
            </Button>
          </>
        }
      />
      <LoadState
        loading={q.isPending && !q.error}
        error={q.error && !dismissed ? errorMessage(q.error) : null}
        errorTitle="Failed to load MFA recovery data"
        onRetry={() => {
          setDismissed(false);
          void q.refetch();
        }}
        onDismiss={() => setDismissed(true)}
      >
        {d && (
          <>
            <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }} mb="md">
              <StatCard
                title="Pending Requests"
                value={d.requests.filter((r) => r.status === 'pending').length}
                icon={<IconUserQuestion size={24} />}
                color="yellow"
              />
              <StatCard
                title="Active Lockouts"
                value={d.lockouts.filter((l) => l.status === 'active').length}
                icon={<IconLock size={24} />}
                color="red"
              />
              <StatCard
                title="Backup Codes"
                value={d.backupCodes.length}
                caption={`${d.backupCodes.filter((c) => c.used).length} used`}
                icon={<IconKey size={24} />}
              />
              <StatCard
                title="Recovery Methods"
                value={d.recoveryMethods.length}
                caption={`${d.recoveryMethods.filter((m) => m.verified).length} verified`}
                icon={<IconMail size={24} />}
                color="violet"
              />
            </SimpleGrid>
            <Card withBorder radius="md">
              <Tabs value={tab} onChange={setTab}>
                <Tabs.List>
                  <Tabs.Tab value="requests">Recovery Requests ({d.requests.length})</Tabs.Tab>
                  <Tabs.Tab value="lockouts">Account Lockouts ({d.lockouts.length})</Tabs.Tab>
                  <Tabs.Tab value="codes">Backup Codes ({d.backupCodes.length})</Tabs.Tab>
                  <Tabs.Tab value="methods">Recovery Methods ({d.recoveryMethods.length})</Tabs.Tab>
                </Tabs.List>

                <Tabs.Panel value="requests" pt="md">
                  <Filters
                    label="requests"
                    options={['All', 'Pending', 'Approved', 'Rejected']}
                    {...filt('requests')}
                  />
                  <RequestsTable
                    requests={requests}
                    onApprove={(r) =>
                      void runAction({
                        confirm: {
                          title: 'Approve recovery',
                          message: `Reset every second factor of ${r.userEmail}? They enrol a new one at their next sign-in.`,
                          confirmLabel: 'Approve',
                        },
                        run: () => approve.mutateAsync(r.id),
                        success: 'Recovery approved',
                        after: invalidate,
                      })
                    }
                    onReject={(r) =>
                      void runAction({
                        confirm: {
                          title: 'Reject recovery',
                          message: `Reject the request of ${r.userEmail}?`,
                          confirmLabel: 'Reject',
                          danger: true,
                        },
                        run: () => reject.mutateAsync(r.id),
                        success: 'Recovery rejected',
                        after: invalidate,
                      })
                    }
                  />
                </Tabs.Panel>

                <Tabs.Panel value="lockouts" pt="md">
                  <Filters
                    label="lockouts"
                    options={['All', 'Active', 'Expired', 'Unlocked']}
                    {...filt('lockouts')}
                  />
                  <LockoutsTable
                    lockouts={lockouts}
                    onUnlock={(l) =>
                      void runAction({
                        confirm: {
                          title: 'Unlock account',
                          message: `Lift the lockout of ${l.userEmail}?`,
                          confirmLabel: 'Unlock',
                        },
                        run: () => unlock.mutateAsync(l.id),
                        success: 'Account unlocked',
                        after: invalidate,
                      })
                    }
                  />
                </Tabs.Panel>

                <Tabs.Panel value="codes" pt="md">
                  <Filters
                    label="backup codes"
                    options={['All', 'Available', 'Used', 'Expired']}
                    {...filt('codes')}
                  />
                  <BackupCodesTable codes={backup} />
                </Tabs.Panel>

                <Tabs.Panel value="methods" pt="md">
                  <Filters label="recovery methods" options={['All', 'Email', 'SMS']} {...filt('methods')} />
                  <Alert color="gray" variant="light" icon={<IconAlertTriangle aria-hidden />} mb="sm">
                    SMS is unavailable: no SMS provider is configured.
                  </Alert>
                  {methods.length === 0 && (
                    <Text c="dimmed" size="sm" ta="center" py="md">
                      No recovery methods
                    </Text>
                  )}
                </Tabs.Panel>
              </Tabs>
            </Card>
          </>
        )}
      </LoadState>
      <Modal opened={genOpen} onClose={() => setGenOpen(false)} title="Generate Backup Codes">
        {codes ? (
          <>
            <Text size="sm" mb="xs">
              Your new backup codes. Each works once; they are not shown again and your previous set no longer
              works.
            </Text>
            <SimpleGrid cols={2} spacing={4} data-testid="generated-codes">
              {codes.map((c) => (
                <Code key={c}>{c}</Code>
              ))}
            </SimpleGrid>
          </>
        ) : (
          <>
            <Text size="sm" mb="sm">
              Generates a new set of backup codes for your own account. Your previous set stops working. Other
              users generate theirs on their account page.
            </Text>
            {genError && (
              <Alert color="red" variant="light" role="alert" mb="sm">
                {genError}
              </Alert>
            )}
            <Group justify="flex-end">
              <Button variant="default" onClick={() => setGenOpen(false)}>
                Cancel
              </Button>
              <Button onClick={() => void generate()}>Generate</Button>
            </Group>
          </>
        )}
      </Modal>
    </>
  );
}
