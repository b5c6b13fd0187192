import {
  toggledStatus,
  webMessages,
  type VhostListQuery,
  type VhostStatus,
  type VirtualHost,
} from '@mailroom/contract/web';
import { Alert, Button, Card, Stack, Text } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { errorMessage } from '../../api/client.ts';
import { ApplyOutcomeAlert } from '../../components/apply-outcome-alert.tsx';
import { type TableSort, sortParam } from '../../components/data-table/data-table.tsx';
import { LoadState } from '../../components/load-state.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { useListPager, useListPaging } from '../../components/use-list-paging.ts';
import { notify } from '../../lib/notifications-store.ts';
import { useUrlSearch } from '../../lib/use-url-search.ts';
import { VhostListFilters } from './components/list-filters.tsx';
import { RefreshButton } from './components/refresh-button.tsx';
import { VhostDeleteDialog } from './components/vhost-delete-dialog.tsx';
import { VhostDetailsModal } from './components/vhost-details-modal.tsx';
import { VhostFormModal, type VhostModalMode } from './components/vhost-form-modal.tsx';
import { VhostTable } from './components/vhost-table.tsx';
import { useRemoveVhost } from './use-remove-vhost.ts';
import { useSetVhostStatus } from './use-set-vhost-status.ts';
import { useVhosts } from './use-vhosts.ts';
import { useWebCapabilities } from './use-web-capabilities.ts';

export const VHOST_PAGE_SIZE = 50;
export const SEARCH_DEBOUNCE_MS = 300;

const BREADCRUMBS = [
  { label: 'Dashboard', to: '/dashboard' },
  { label: 'Web Management', to: '/web' },
  { label: 'Virtual Hosts' },
];

const STATUS_MEANING: Record<VhostStatus, string> = {
  active: 'Apache serves the site again.',
  inactive: 'Apache no longer serves the site: it answers 503.',
  maintenance: 'Visitors get the maintenance page, except the allowed IPs.',
};

const STATUS_WORD: Record<VhostStatus, string> = {
  active: 'enabled',
  inactive: 'disabled',
  maintenance: 'in maintenance',
};

export default function VhostsPage() {
  const { search, setSearch, q } = useUrlSearch(SEARCH_DEBOUNCE_MS);
  const [status, setStatus] = useState('');
  const [sort, setSort] = useState<TableSort>({ id: 'domain', desc: false });
  const [modal, setModal] = useState<VhostModalMode>(null);
  const [viewing, setViewing] = useState<VirtualHost | null>(null);
  const [deleting, setDeleting] = useState<VirtualHost | null>(null);
  const [removed, setRemoved] = useState<string | null>(null);
  const [dismissed, setDismissed] = useState(false);
  const paging = useListPaging(VHOST_PAGE_SIZE, [q, status, sort]);

  const query: VhostListQuery = {
    q: q || undefined,
    ...paging.query,
    sort: sortParam(sort) as VhostListQuery['sort'],
    ...(status ? { status: status as VhostStatus } : {}),
  };
  const list = useVhosts(query);
  const pager = useListPager(paging, list, 'virtual hosts');
  const capabilities = useWebCapabilities();
  const setVhostStatus = useSetVhostStatus();
  const remove = useRemoveVhost();

  const toggle = (v: VirtualHost) => {
    const next = toggledStatus(v.status);
    setVhostStatus.mutate(
      { domain: v.domain, status: next },
      {
        onSuccess: () => {
          notify({
            type: 'success',
            title: `${v.domain} ${STATUS_WORD[next]}`,
            message: STATUS_MEANING[next],
          });
        },
        onError: (err) =>
          notify({
            type: 'error',
            title: `Failed to ${next === 'active' ? 'enable' : 'disable'} ${v.domain}`,
            message: errorMessage(err),
          }),
      },
    );
  };

  const runDelete = (v: VirtualHost, keepFiles: boolean) => {
    setDeleting(null);
    setRemoved(null);
    remove.mutate(
      { domain: v.domain, keepFiles },
      {
        onSuccess: (res) =>
          setRemoved(
            res.filesRemoved
              ? `The virtual host ${v.domain} was deleted, and its files in ${res.documentRoot} with it.`
              : `The virtual host ${v.domain} was deleted. Its files are kept in ${res.documentRoot}.`,
          ),
        onError: (err) =>
          notify({ type: 'error', title: `Failed to delete ${v.domain}`, message: errorMessage(err) }),
      },
    );
  };

  const refresh = () => {
    setDismissed(false);
    void Promise.all([list.refetch(), capabilities.refetch()]);
  };

  return (
    <>
      <PageHeader
        title="Virtual Hosts"
        breadcrumbs={BREADCRUMBS}
        subtitle="Sites Apache serves, each checked by Apache before it goes live"
        actions={
          <>
            <RefreshButton loading={list.isFetching} onClick={refresh} />
            <Button
              leftSection={<IconPlus size={16} aria-hidden />}
              onClick={() => setModal({ kind: 'add' })}
            >
              Add Virtual Host
            </Button>
          </>
        }
      />
      <Stack gap="md">
        <ApplyOutcomeAlert target="web" label="web server" refreshKey={list.dataUpdatedAt} />
        {removed && (
          <Alert
            color="green"
            variant="light"
            withCloseButton
            closeButtonLabel="Dismiss"
            onClose={() => setRemoved(null)}
            role="status"
          >
            <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
              {removed}
            </Text>
          </Alert>
        )}
        <Card withBorder radius="md" padding="md">
          <VhostListFilters
            search={search}
            onSearch={setSearch}
            status={status}
            onStatus={setStatus}
            refreshing={list.isFetching && !list.isPending}
          />
          <LoadState
            loading={list.isPending && !dismissed}
            error={list.isError && !dismissed ? errorMessage(list.error) : null}
            errorTitle={webMessages.loadFailed}
            loadingLabel="Loading virtual hosts…"
            onRetry={refresh}
            onDismiss={() => setDismissed(true)}
          >
            {list.data && (
              <VhostTable
                vhosts={list.data.data}
                emptyText={webMessages.empty}
                sort={sort}
                onSortChange={setSort}
                pager={pager}
                onEdit={(v) => setModal({ kind: 'edit', vhost: v })}
                onView={setViewing}
                onToggle={toggle}
                onDelete={setDeleting}
                toggling={setVhostStatus.isPending ? (setVhostStatus.variables?.domain ?? null) : null}
                deleting={remove.isPending ? (remove.variables?.domain ?? null) : null}
              />
            )}
          </LoadState>
        </Card>
      </Stack>
      <VhostFormModal mode={modal} capabilities={capabilities.data ?? null} onClose={() => setModal(null)} />
      <VhostDetailsModal vhost={viewing} onClose={() => setViewing(null)} />
      <VhostDeleteDialog vhost={deleting} onCancel={() => setDeleting(null)} onConfirm={runDelete} />
    </>
  );
}
