import {
  appMessages,
  type AppListQuery,
  type AppStatus,
  type AppType,
  type WebAppRelease,
  type WebApplicationSummary,
} from '@mailroom/contract/web';
import { Alert, Button, Card, Stack, Text } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useCallback, useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import { errorMessage } from '../../api/client.ts';
import { confirmAction } from '../../components/confirm-action.ts';
import { type TableSort, sortParam } from '../../components/data-table/data-table.tsx';
import { LoadState } from '../../components/load-state.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { useListPager, useListPaging } from '../../components/use-list-paging.ts';
import { notify } from '../../lib/notifications-store.ts';
import { useUrlSearch } from '../../lib/use-url-search.ts';
import { AppDeleteDialog } from './components/app-delete-dialog.tsx';
import { AppFormModal, type AppModalMode } from './components/app-form-modal.tsx';
import { AppListFilters } from './components/app-list-filters.tsx';
import { AppPanel } from './components/app-panel.tsx';
import { AppRowActions } from './components/app-row-actions.tsx';
import { AppTable } from './components/app-table.tsx';
import { RefreshButton } from './components/refresh-button.tsx';
import { useAppCapabilities } from './use-app-capabilities.ts';
import { useApps } from './use-apps.ts';
import { useDeployApp } from './use-deploy-app.ts';
import { useRemoveApp } from './use-remove-app.ts';
import { useRestartApp } from './use-restart-app.ts';
import { useRollbackApp } from './use-rollback-app.ts';
import { useToggleApp } from './use-toggle-app.ts';

export const APP_PAGE_SIZE = 50;
export const SEARCH_DEBOUNCE_MS = 300;
/** While a row is deploying, the list is read again this often (its status moves on the server). */
export const DEPLOYING_LIST_REFRESH_MS = 3000;

const BREADCRUMBS = [
  { label: 'Dashboard', to: '/dashboard' },
  { label: 'Web Management', to: '/web' },
  { label: 'Applications' },
];

/** The panel open in the URL (`?app=<name>&job=<id>`): a reload reopens it and resumes its log. */
function usePanelParams() {
  const [params, setParams] = useSearchParams();
  const name = params.get('app');
  const job = Number.parseInt(params.get('job') ?? '', 10);
  const open = useCallback(
    (app: string, jobId?: number) =>
      setParams((prev) => {
        const next = new URLSearchParams(prev);
        next.set('app', app);
        if (jobId === undefined) next.delete('job');
        else next.set('job', String(jobId));
        return next;
      }),
    [setParams],
  );
  const close = useCallback(
    () =>
      setParams((prev) => {
        const next = new URLSearchParams(prev);
        next.delete('app');
        next.delete('job');
        return next;
      }),
    [setParams],
  );
  return { name, jobId: Number.isInteger(job) && job > 0 ? job : undefined, open, close };
}

/** `?edit=<name>` (the dashboard's Edit) opens the Edit modal once, then leaves the URL. */
function useEditParam(onEdit: (name: string) => void) {
  const [params, setParams] = useSearchParams();
  const edit = params.get('edit');
  useEffect(() => {
    if (edit === null) return;
    onEdit(edit);
    setParams(
      (prev) => {
        const next = new URLSearchParams(prev);
        next.delete('edit');
        return next;
      },
      { replace: true },
    );
  }, [edit, onEdit, setParams]);
}

export default function ApplicationsPage() {
  const { search, setSearch, q } = useUrlSearch(SEARCH_DEBOUNCE_MS);
  const [type, setType] = useState('');
  const [status, setStatus] = useState('');
  const [sort, setSort] = useState<TableSort>({ id: 'name', desc: false });
  const [modal, setModal] = useState<AppModalMode>(null);
  const [deleting, setDeleting] = useState<WebApplicationSummary | null>(null);
  const [removed, setRemoved] = useState<string | null>(null);
  const [dismissed, setDismissed] = useState(false);
  const [anyDeploying, setAnyDeploying] = useState(false);
  const panel = usePanelParams();
  useEditParam(useCallback((name: string) => setModal({ kind: 'edit', name }), []));
  const paging = useListPaging(APP_PAGE_SIZE, [q, type, status, sort]);

  const query: AppListQuery = {
    q: q || undefined,
    ...paging.query,
    sort: sortParam(sort) as AppListQuery['sort'],
    ...(type ? { type: type as AppType } : {}),
    ...(status ? { status: status as AppStatus } : {}),
  };
  const list = useApps(query, anyDeploying ? DEPLOYING_LIST_REFRESH_MS : false);
  const rows = list.data?.data;
  const deployingNow = rows?.some((a) => a.status === 'deploying') ?? false;
  if (deployingNow !== anyDeploying) setAnyDeploying(deployingNow);
  const pager = useListPager(paging, list, 'applications');
  const capabilities = useAppCapabilities();
  const deploy = useDeployApp();
  const rollback = useRollbackApp();
  const toggle = useToggleApp();
  const restart = useRestartApp();
  const remove = useRemoveApp();

  const runDeploy = useCallback(
    (a: WebApplicationSummary, ref = '') => {
      // Deploying already: the panel follows that job (a second one would be refused as busy).
      if (a.status === 'deploying' && a.deployJobId !== null) {
        panel.open(a.name, a.deployJobId);
        return;
      }
      deploy.mutate(
        { name: a.name, ...(ref ? { ref } : {}) },
        {
          onSuccess: (job) => {
            notify({ type: 'info', title: appMessages.deployStarted(a.name), message: job.message });
            panel.open(a.name, job.jobId);
          },
          onError: (err) =>
            notify({ type: 'error', title: `Failed to deploy ${a.name}`, message: errorMessage(err) }),
        },
      );
    },
    [deploy, panel],
  );

  const runToggle = useCallback(
    (a: WebApplicationSummary) => {
      const starting = a.status !== 'active';
      toggle.mutate(
        { name: a.name },
        {
          onSuccess: (res) =>
            notify({
              type: 'success',
              title: starting ? appMessages.started(a.name) : appMessages.stopped(a.name),
              message: res.message,
            }),
          onError: (err) =>
            notify({
              type: 'error',
              title: `Failed to ${starting ? 'start' : 'stop'} ${a.name}`,
              message: errorMessage(err),
            }),
        },
      );
    },
    [toggle],
  );

  const runRestart = (a: WebApplicationSummary) =>
    restart.mutate(
      { name: a.name },
      {
        onSuccess: (res) =>
          notify({ type: 'success', title: appMessages.restarted(a.name), message: res.message }),
        onError: (err) =>
          notify({ type: 'error', title: `Failed to restart ${a.name}`, message: errorMessage(err) }),
      },
    );

  const runRollback = async (a: WebApplicationSummary, r: WebAppRelease) => {
    const ok = await confirmAction({
      title: 'Rollback',
      message: `Run release #${r.number}${r.commit ? ` (commit ${r.commit.slice(0, 10)})` : ''} of ${a.name} again, with the environment it ran with? It starts beside the live release and Apache switches to it only once its health check passes.`,
      confirmLabel: 'Rollback',
    });
    if (!ok) return;
    rollback.mutate(
      { name: a.name, releaseId: r.id },
      {
        onSuccess: (job) => {
          notify({ type: 'info', title: appMessages.rollbackStarted(a.name), message: job.message });
          panel.open(a.name, job.jobId);
        },
        onError: (err) =>
          notify({ type: 'error', title: `Failed to roll back ${a.name}`, message: errorMessage(err) }),
      },
    );
  };

  const runDelete = (a: WebApplicationSummary, keepFiles: boolean) => {
    setDeleting(null);
    setRemoved(null);
    if (panel.name === a.name) panel.close();
    remove.mutate(
      { name: a.name, keepFiles },
      {
        onSuccess: (res) =>
          setRemoved(
            res.filesRemoved
              ? `The application ${a.name} was deleted, and its releases in ${res.deploymentPath} with it.`
              : `The application ${a.name} was deleted. Its releases are kept in ${res.deploymentPath}.`,
          ),
        onError: (err) =>
          notify({ type: 'error', title: `Failed to delete ${a.name}`, message: errorMessage(err) }),
      },
    );
  };

  const refresh = () => {
    setDismissed(false);
    void Promise.all([list.refetch(), capabilities.refetch()]);
  };

  const busyName = (m: { isPending: boolean; variables?: { name: string } | undefined }) =>
    m.isPending ? (m.variables?.name ?? null) : null;
  const deployingName = busyName(deploy);
  const togglingName = busyName(toggle);
  const deletingName = busyName(remove);
  const actions = useCallback(
    (a: WebApplicationSummary) => (
      <AppRowActions
        app={a}
        onEdit={(x) => setModal({ kind: 'edit', name: x.name })}
        onView={(x) => panel.open(x.name)}
        onDeploy={(x) => runDeploy(x)}
        onToggle={runToggle}
        onDelete={setDeleting}
        deploying={deployingName === a.name}
        toggling={togglingName === a.name}
        deleting={deletingName === a.name}
      />
    ),
    [panel, runDeploy, runToggle, deployingName, togglingName, deletingName],
  );

  const mine = (n: string | null) => n !== null && n === panel.name;

  return (
    <>
      <PageHeader
        title="Web Applications"
        breadcrumbs={BREADCRUMBS}
        subtitle="Applications deployed from git behind their virtual hosts, switched only once healthy"
        actions={
          <>
            <RefreshButton loading={list.isFetching} onClick={refresh} />
            <Button
              leftSection={<IconPlus size={16} aria-hidden />}
              onClick={() => setModal({ kind: 'add' })}
            >
              Add Web Application
            </Button>
          </>
        }
      />
      <Stack gap="md">
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
          <AppListFilters
            search={search}
            onSearch={setSearch}
            type={type}
            onType={setType}
            status={status}
            onStatus={setStatus}
            refreshing={list.isFetching && !list.isPending}
          />
          <LoadState
            loading={list.isPending && !dismissed}
            error={list.isError && !dismissed ? errorMessage(list.error) : null}
            errorTitle={appMessages.loadFailed}
            loadingLabel="Loading web applications…"
            onRetry={refresh}
            onDismiss={() => setDismissed(true)}
          >
            {rows && (
              <AppTable
                apps={rows}
                emptyText={appMessages.empty}
                sort={sort}
                onSortChange={setSort}
                pager={pager}
                actions={actions}
              />
            )}
          </LoadState>
        </Card>
      </Stack>
      <AppFormModal mode={modal} capabilities={capabilities.data ?? null} onClose={() => setModal(null)} />
      <AppDeleteDialog app={deleting} onCancel={() => setDeleting(null)} onConfirm={runDelete} />
      <AppPanel
        name={panel.name}
        jobId={panel.jobId}
        onClose={panel.close}
        onDeploy={runDeploy}
        onToggle={runToggle}
        onRestart={runRestart}
        onRollback={(a, r) => void runRollback(a, r)}
        pending={{
          deploy: mine(deployingName),
          toggle: mine(togglingName),
          restart: mine(busyName(restart)),
          rollback: mine(busyName(rollback)),
        }}
      />
    </>
  );
}
