import type { Alias, ImportAliasesResponse } from '@mailroom/contract/mail';
import { Button, Card, FileButton, Group, Loader, Stack, Text, TextInput } from '@mantine/core';
import { IconDownload, IconPlus, IconRefresh, IconSearch, IconUpload, IconX } from '@tabler/icons-react';
import { useEffect, useRef, useState } from 'react';
import { errorMessage } from '../../api/client.ts';
import { confirmAction } from '../../components/confirm-action.ts';
import { JobProgress } from '../../components/job-progress.tsx';
import { LoadState } from '../../components/load-state.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { type PagePosition, pagePosition, pageQuery } from '../../lib/cursor-pages.ts';
import { notify } from '../../lib/notifications-store.ts';
import { useUrlSearch } from '../../lib/use-url-search.ts';
import { ActionErrorAlert } from './components/action-error-alert.tsx';
import { AliasCreateForm } from './components/alias-create-form.tsx';
import { AliasEditModal } from './components/alias-edit-modal.tsx';
import { AliasImportResult } from './components/alias-import-result.tsx';
import { AliasTable } from './components/alias-table.tsx';
import { ListPager } from './components/list-pager.tsx';
import { downloadAliases } from './export-aliases.ts';
import { useAliases } from './use-aliases.ts';
import { useImportAliases } from './use-import-aliases.ts';
import { useRemoveAlias } from './use-remove-alias.ts';

export const ALIAS_PAGE_SIZE = 50;
export const ALIAS_SEARCH_DEBOUNCE_MS = 300;

const BREADCRUMBS = [
  { label: 'Dashboard', to: '/dashboard' },
  { label: 'Mail Management', to: '/mail' },
  { label: 'Email Aliases' },
];

function importSummary(r: ImportAliasesResponse): string {
  return `Imported ${r.imported}, skipped ${r.skipped}, ${r.errors.length} ${r.errors.length === 1 ? 'row' : 'rows'} with errors.`;
}

export default function AliasesPage() {
  const [adding, setAdding] = useState(false);
  const { search, setSearch, q } = useUrlSearch(ALIAS_SEARCH_DEBOUNCE_MS);
  const [pos, setPos] = useState<PagePosition>({ page: 1 });
  const page = pos.page;
  const [editing, setEditing] = useState<Alias | null>(null);
  const [deleteError, setDeleteError] = useState<{ source: string; message: string } | null>(null);
  const [loadErrorDismissed, setLoadErrorDismissed] = useState(false);
  const [exporting, setExporting] = useState<string | null>(null);
  const [importFile, setImportFile] = useState<string | null>(null);
  const [importOutcome, setImportOutcome] = useState<{
    result: ImportAliasesResponse | null;
    error: string | null;
  }>({ result: null, error: null });
  const resetFileInput = useRef<() => void>(null);

  const list = useAliases({ q: q || undefined, ...pageQuery(pos, ALIAS_PAGE_SIZE), sort: 'source' });
  const setPage = (to: number) =>
    setPos(pagePosition({ page, next: list.data?.next, prev: list.data?.prev }, to));
  const remove = useRemoveAlias();
  const importAliases = useImportAliases();

  useEffect(() => setPos({ page: 1 }), [q]);
  const total = list.data?.total ?? 0;
  const lastPage = Math.max(1, Math.ceil(total / ALIAS_PAGE_SIZE));
  useEffect(() => {
    if (list.data && page > lastPage) setPos({ page: lastPage });
  }, [list.data, page, lastPage]);

  const runDelete = (source: string) => {
    setDeleteError(null);
    remove.mutate(source, {
      onSuccess: () =>
        notify({ type: 'success', title: 'Alias deleted', message: `Alias ${source} was deleted.` }),
      onError: (err) => {
        const message = errorMessage(err);
        setDeleteError({ source, message });
        notify({ type: 'error', title: 'Failed to delete email alias', message });
      },
    });
  };

  const askDelete = async (a: Alias) => {
    const ok = await confirmAction({
      title: 'Delete Alias',
      message: `Are you sure you want to delete the alias ${a.source}?`,
      confirmLabel: 'Delete',
      danger: true,
    });
    if (ok) runDelete(a.source);
  };

  const exportAll = async () => {
    setExporting('Starting…');
    try {
      const of = total.toLocaleString();
      const { count, fileName } = await downloadAliases((done) =>
        setExporting(`${done.toLocaleString()} / ${of}`),
      );
      notify({
        type: 'success',
        title: 'Aliases exported',
        message: `${count} aliases written to ${fileName}.`,
      });
    } catch (err) {
      notify({ type: 'error', title: 'Failed to export aliases', message: errorMessage(err) });
    } finally {
      setExporting(null);
    }
  };

  const runImport = (file: File | null) => {
    resetFileInput.current?.();
    if (!file) return;
    setImportFile(file.name);
    importAliases.mutate(
      { csv: file, dryRun: false },
      {
        onSuccess: (result) => {
          setImportOutcome({ result, error: null });
          notify({
            type: result.errors.length ? 'warning' : 'success',
            title: 'Aliases imported',
            message: `${file.name}: ${importSummary(result)}`,
          });
        },
        onError: (err) => {
          const message = errorMessage(err);
          setImportOutcome({ result: null, error: message });
          notify({ type: 'error', title: 'Failed to import aliases', message: `${file.name}: ${message}` });
        },
      },
    );
  };

  const loadError = list.isError && !loadErrorDismissed ? errorMessage(list.error) : null;
  const rows = list.data?.data ?? [];

  return (
    <>
      <PageHeader
        title="Email Aliases"
        breadcrumbs={BREADCRUMBS}
        subtitle="Addresses that forward to one or more mailboxes"
        actions={
          <>
            <Button
              variant="default"
              leftSection={<IconDownload size={16} aria-hidden />}
              onClick={() => void exportAll()}
              loading={exporting !== null}
            >
              Export Aliases
            </Button>
            <FileButton onChange={runImport} accept=".csv,text/csv" resetRef={resetFileInput}>
              {(props) => (
                <Button
                  {...props}
                  variant="default"
                  leftSection={<IconUpload size={16} aria-hidden />}
                  loading={importAliases.isPending}
                >
                  Import Aliases
                </Button>
              )}
            </FileButton>
            <Button
              variant="default"
              leftSection={<IconRefresh size={16} aria-hidden />}
              onClick={() => void list.refetch()}
              loading={list.isFetching && !list.isPending}
            >
              Refresh
            </Button>
            <Button
              leftSection={adding ? <IconX size={16} aria-hidden /> : <IconPlus size={16} aria-hidden />}
              onClick={() => setAdding((v) => !v)}
              aria-expanded={adding}
            >
              Add Alias
            </Button>
          </>
        }
      />
      <Stack gap="md">
        {exporting && (
          <Text size="sm" c="dimmed" role="status">
            Exporting aliases: {exporting}
          </Text>
        )}
        {importAliases.progress && (
          <Card withBorder radius="md" padding="md">
            <JobProgress job={importAliases.progress} onCancel={importAliases.cancel} />
          </Card>
        )}
        {adding && <AliasCreateForm onClose={() => setAdding(false)} />}
        {deleteError && (
          <ActionErrorAlert
            title="Failed to delete email alias"
            message={deleteError.message}
            onRetry={() => runDelete(deleteError.source)}
            retrying={remove.isPending}
            onDismiss={() => setDeleteError(null)}
          />
        )}
        <Card withBorder radius="md" padding="md">
          <Group justify="space-between" mb="sm" wrap="wrap" gap="sm">
            <TextInput
              aria-label="Search aliases"
              placeholder="Search by source or destination"
              leftSection={<IconSearch size={16} aria-hidden />}
              value={search}
              onChange={(e) => setSearch(e.currentTarget.value)}
              style={{ flex: 1, minWidth: 200, maxWidth: 420 }}
            />
            {list.isFetching && !list.isPending && <Loader size="sm" aria-label="Refreshing aliases" />}
          </Group>
          <LoadState
            loading={list.isPending && !loadErrorDismissed}
            error={loadError}
            errorTitle="Failed to load email aliases"
            loadingLabel="Loading email aliases…"
            onRetry={() => {
              setLoadErrorDismissed(false);
              void list.refetch();
            }}
            onDismiss={() => setLoadErrorDismissed(true)}
          >
            {list.data && (
              <>
                <AliasTable
                  aliases={rows}
                  onEdit={setEditing}
                  onDelete={(a) => void askDelete(a)}
                  deleting={remove.isPending ? (remove.variables ?? null) : null}
                  emptyText={q ? `No aliases found matching "${q}"` : 'No email aliases found'}
                />
                {/* No total while a new search loads: not the previous search's count. */}
                {!list.isPlaceholderData && (
                  <ListPager
                    page={page}
                    pageSize={ALIAS_PAGE_SIZE}
                    total={total}
                    onPage={setPage}
                    noun="aliases"
                  />
                )}
              </>
            )}
          </LoadState>
        </Card>
      </Stack>
      <AliasEditModal alias={editing} onClose={() => setEditing(null)} />
      <AliasImportResult
        fileName={importFile}
        result={importOutcome.result}
        error={importOutcome.error}
        onClose={() => setImportOutcome({ result: null, error: null })}
      />
    </>
  );
}
