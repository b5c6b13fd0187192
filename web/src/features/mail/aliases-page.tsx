import type { Alias, AliasListQuery } from '@mailroom/contract/mail';
import { Button, Modal, Stack, Text } from '@mantine/core';
import { IconDownload, IconPlus, IconRefresh, IconUpload, IconX } from '@tabler/icons-react';
import { useState } from 'react';
import { errorMessage } from '../../api/client.ts';
import { BulkOperationButton } from '../../components/bulk-operation-button.tsx';
import { confirmDelete } from '../../components/confirm-action.ts';
import { type TableSort, sortParam } from '../../components/data-table/data-table.tsx';
import { ImportFlow } from '../../components/import-flow/import-flow.tsx';
import { SelectionBar } from '../../components/selection-bar.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { useListPager, useListPaging } from '../../components/use-list-paging.ts';
import { notify } from '../../lib/notifications-store.ts';
import { useUrlSearch } from '../../lib/use-url-search.ts';
import { useIsFullAdmin } from '../../api/use-full-admin.ts';
import { ActionErrorAlert } from './components/action-error-alert.tsx';
import { AliasCreateForm } from './components/alias-create-form.tsx';
import { AliasEditModal } from './components/alias-edit-modal.tsx';
import { AliasTable } from './components/alias-table.tsx';
import { ListCard } from './components/list-card.tsx';
import { downloadAliases } from './export-aliases.ts';
import { useAliases } from './use-aliases.ts';
import { useImportAliases } from './use-import-aliases.ts';
import { useRemoveAlias } from './use-remove-alias.ts';
import { useRemoveAliases } from './use-remove-aliases.ts';

export const ALIAS_PAGE_SIZE = 50;
export const ALIAS_SEARCH_DEBOUNCE_MS = 300;

const BREADCRUMBS = [
  { label: 'Dashboard', to: '/dashboard' },
  { label: 'Mail Management', to: '/mail' },
  { label: 'Email Aliases' },
];

export default function AliasesPage() {
  const [adding, setAdding] = useState(false);
  const { search, setSearch, q } = useUrlSearch(ALIAS_SEARCH_DEBOUNCE_MS);
  const [editing, setEditing] = useState<Alias | null>(null);
  const [deleteError, setDeleteError] = useState<{ source: string; message: string } | null>(null);
  const [exporting, setExporting] = useState<string | null>(null);
  const [importing, setImporting] = useState(false);
  const [sort, setSort] = useState<TableSort>({ id: 'source', desc: false });
  const paging = useListPaging(ALIAS_PAGE_SIZE, [q, sort]);
  const { selection, setSelection, clearSelection } = paging;
  // Import and bulk delete are an administrator's: a domain administrator does not see them.
  const isAdmin = useIsFullAdmin();

  const list = useAliases({
    q: q || undefined,
    ...paging.query,
    sort: sortParam(sort) as AliasListQuery['sort'],
  });
  const pager = useListPager(paging, list, 'aliases');
  const remove = useRemoveAlias();
  const removeMany = useRemoveAliases();
  const importAliases = useImportAliases();
  const total = list.data?.total ?? 0;

  const runDelete = (source: string) => {
    setDeleteError(null);
    remove.mutate(source, {
      onSuccess: () =>
        notify({ type: 'success', title: 'Alias deleted', message: `Alias ${source} was deleted.` }),
      // Said once: the alert above the list, with Try Again (no toast for the same failure).
      onError: (err) => setDeleteError({ source, message: errorMessage(err) }),
    });
  };

  const askDelete = async (a: Alias) => {
    const ok = await confirmDelete('Delete Alias', `Are you sure you want to delete the alias ${a.source}?`);
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

  const deleteSelected = async () => {
    const sources = [...selection];
    const ok = await confirmDelete(
      'Delete Aliases',
      `Are you sure you want to delete ${sources.length} ${sources.length === 1 ? 'alias' : 'aliases'}?`,
    );
    if (!ok) return;
    removeMany.mutate(sources, {
      onSuccess: (res) => {
        clearSelection();
        notify({
          type: 'success',
          title: 'Aliases deleted',
          message: `${res.removed} aliases were deleted.`,
        });
      },
      onError: (err) =>
        notify({ type: 'error', title: 'Failed to delete email aliases', message: errorMessage(err) }),
    });
  };

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
            {isAdmin && (
              <Button
                variant="default"
                leftSection={<IconUpload size={16} aria-hidden />}
                onClick={() => setImporting(true)}
              >
                Import Aliases
              </Button>
            )}
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
        <ListCard
          searchLabel="Search aliases"
          searchPlaceholder="Search by source or destination"
          search={search}
          onSearch={setSearch}
          list={list}
          refreshingLabel="Refreshing aliases"
          errorTitle="Failed to load email aliases"
          loadingLabel="Loading email aliases…"
        >
          {isAdmin && (
            <SelectionBar
              count={selection.size}
              noun={['alias', 'aliases']}
              deleting={removeMany.isPending}
              onDelete={() => void deleteSelected()}
              onClear={clearSelection}
              extra={
                <BulkOperationButton operation="mail.alias.delete" keys={[...selection]} filter={{ q }} />
              }
            />
          )}
          <AliasTable
            aliases={rows}
            onEdit={setEditing}
            onDelete={(a) => void askDelete(a)}
            deleting={remove.isPending ? (remove.variables ?? null) : null}
            emptyText={q ? `No aliases found matching "${q}"` : 'No email aliases found'}
            sort={sort}
            onSortChange={setSort}
            // The bulk delete is an administrator's (its route answers 403 to a domain admin).
            selection={isAdmin ? selection : undefined}
            onSelectionChange={isAdmin ? setSelection : undefined}
            pager={pager}
          />
        </ListCard>
      </Stack>
      <AliasEditModal alias={editing} onClose={() => setEditing(null)} />
      <Modal
        opened={importing}
        onClose={() => setImporting(false)}
        title="Import Aliases"
        size="lg"
        centered
        closeButtonProps={{ 'aria-label': 'Close' }}
      >
        <ImportFlow
          label="Import aliases"
          hint="A CSV file with the header source,destination (destination: one address or several, comma-separated)."
          commitLabel="Import Aliases"
          doneTitle="Aliases imported"
          noun={['alias', 'aliases']}
          importer={importAliases}
          createDomainsOption
          skippedHint="Skipped rows had no source or no destination."
        />
      </Modal>
    </>
  );
}
