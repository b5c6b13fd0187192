import type { DnsRecord, DnsRecordType, RecordListQuery } from '@mailroom/contract/dns';
import { Alert, Button, Card, Modal, Stack, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconPlus, IconX } from '@tabler/icons-react';
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { errorMessage } from '../../api/client.ts';
import { confirmDelete } from '../../components/confirm-action.ts';
import { type TableSort, sortParam } from '../../components/data-table/data-table.tsx';
import { SelectionBar } from '../../components/selection-bar.tsx';
import { BulkOperationButton } from '../../components/bulk-operation-button.tsx';
import { LoadState } from '../../components/load-state.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { useListPager, useListPaging } from '../../components/use-list-paging.ts';
import { notify } from '../../lib/notifications-store.ts';
import { useIsFullAdmin } from '../../api/use-full-admin.ts';
import { RecordForm } from './components/record-form.tsx';
import { RecordsBulkActions } from './components/records-bulk-actions.tsx';
import { ALL_TYPES, RecordsFilters, type RecordFilterValues } from './components/records-filters.tsx';
import { RecordsTable, recordLabel } from './components/records-table.tsx';
import { SystemRecords } from './components/system-records.tsx';
import { ALL_ZONES } from './components/zone-select.tsx';
import { reportFailure } from './report-failure.ts';
import { useDismissableError } from './use-dismissable-error.ts';
import { useRecords } from './use-records.ts';
import { useRemoveRecord } from './use-remove-record.ts';
import { useRemoveRecords } from './use-remove-records.ts';
import { useSystemRecords } from './use-system-records.ts';
import { useZones } from './use-zones.ts';

export const RECORDS_PAGE_SIZE = 50;
const SEARCH_DEBOUNCE_MS = 300;
const NO_FILTERS: RecordFilterValues = { search: '', zone: ALL_ZONES, type: ALL_TYPES };

export default function RecordsPage() {
  const [params] = useSearchParams();
  const [filters, setFilters] = useState<RecordFilterValues>(() => ({
    ...NO_FILTERS,
    search: params.get('q') ?? '',
    zone: params.get('zone') || ALL_ZONES,
  }));
  const [search] = useDebouncedValue(filters.search.trim(), SEARCH_DEBOUNCE_MS);
  const [showCreate, setShowCreate] = useState(false);
  const [editing, setEditing] = useState<DnsRecord | null>(null);
  const [sort, setSort] = useState<TableSort | undefined>(undefined);
  // Import, bulk delete and the system records are an administrator's (403 to a domain admin).
  const isAdmin = useIsFullAdmin();

  // A new search, filter or order starts at page 1 with nothing selected.
  const paging = useListPaging(RECORDS_PAGE_SIZE, [search, filters.zone, filters.type, sort]);
  const { selection, setSelection, clearSelection } = paging;

  const query: RecordListQuery = {
    q: search || undefined,
    zone: filters.zone === ALL_ZONES ? undefined : filters.zone,
    type: filters.type === ALL_TYPES ? undefined : (filters.type as DnsRecordType),
    ...paging.query,
    ...(sort ? { sort: sortParam(sort) } : {}),
  };
  const filtered = query.q !== undefined || query.zone !== undefined || query.type !== undefined;
  const bulkFilter = { q: query.q, zone: query.zone, type: query.type };
  const records = useRecords(query);
  // No total while a new filter loads: not the previous filter's count.
  const pager = useListPager(paging, records, 'records');
  // The unfiltered count for '(filtered of total)', and whether any zone exists to import into.
  const everything = useRecords({ limit: 1 });
  const zones = useZones({ limit: 1 });
  const system = useSystemRecords(isAdmin);
  const failure = useDismissableError(records.error);
  const remove = useRemoveRecord();
  const removeMany = useRemoveRecords();

  const shown = records.data?.total ?? 0;
  const total = everything.data?.total ?? shown;
  const rows = records.data?.data ?? [];
  // No count while either list loads: never a 0 before the answer or the previous filter's total.
  const counted =
    records.data !== undefined && !records.isPlaceholderData && (!filtered || everything.data !== undefined);

  const refresh = async () => {
    const results = await Promise.all([
      records.refetch(),
      everything.refetch(),
      ...(isAdmin ? [system.refetch()] : []),
    ]);
    const failed = results.find((r) => r.error);
    if (failed)
      notify({ type: 'error', title: 'Failed to load DNS records', message: errorMessage(failed.error) });
    else
      notify({
        type: 'success',
        title: 'Records refreshed',
        message: `${results[1].data?.total ?? 0} records loaded.`,
      });
  };

  const deleteRecord = async (r: DnsRecord) => {
    const label = recordLabel(r);
    const ok = await confirmDelete('Delete DNS Record', `Delete the record ${label} (${r.value})?`);
    if (!ok) return;
    try {
      await remove.mutateAsync(r);
      notify({ type: 'success', title: 'Record deleted', message: `${label} was removed.` });
    } catch (err) {
      reportFailure('Failed to delete record', err);
    }
  };

  const deleteSelected = async () => {
    const ids = [...selection].map(Number);
    const ok = await confirmDelete(
      'Delete DNS Records',
      `Delete ${ids.length} selected ${ids.length === 1 ? 'record' : 'records'}? Their zones are republished once.`,
    );
    if (!ok) return;
    try {
      const res = await removeMany.mutateAsync(ids);
      clearSelection();
      notify({ type: 'success', title: 'Records deleted', message: `${res.removed} records were removed.` });
    } catch (err) {
      reportFailure('Failed to delete records', err);
    }
  };

  return (
    <>
      <PageHeader
        title="Record Management"
        breadcrumbs={[
          { label: 'Dashboard', to: '/dashboard' },
          { label: 'DNS Management', to: '/dns' },
          { label: 'Record Management' },
        ]}
        subtitle="Records of every zone, checked and written to the name server"
        actions={
          <Button
            leftSection={showCreate ? <IconX size={16} aria-hidden /> : <IconPlus size={16} aria-hidden />}
            onClick={() => setShowCreate((v) => !v)}
          >
            {showCreate ? 'Cancel' : 'Add DNS Record'}
          </Button>
        }
      />
      {showCreate && (
        <Card
          withBorder
          radius="md"
          padding="lg"
          mb="lg"
          component="section"
          aria-labelledby="add-record-title"
        >
          <Title order={2} size="h4" mb="md" id="add-record-title">
            Add DNS Record
          </Title>
          <RecordForm defaultZone={query.zone ?? ''} onDone={() => setShowCreate(false)} />
        </Card>
      )}
      {(total > 0 || (zones.data?.total ?? 0) > 0) && (
        <RecordsBulkActions
          hasRecords={total > 0}
          onRefresh={refresh}
          refreshing={records.isFetching || everything.isFetching}
          canImport={isAdmin}
        />
      )}
      <Card withBorder radius="md" padding="md">
        <Title order={2} size="h4" mb="sm">
          DNS Records
          {counted &&
            ` (${filtered ? `${shown.toLocaleString()} of ${total.toLocaleString()}` : total.toLocaleString()})`}
        </Title>
        <RecordsFilters
          value={filters}
          onChange={setFilters}
          onClear={() => setFilters(NO_FILTERS)}
          active={filtered || filters.search !== ''}
        />
        <LoadState
          loading={records.isPending}
          error={failure.message}
          errorTitle="Failed to load DNS records"
          loadingLabel="Loading DNS records..."
          onRetry={() => void records.refetch()}
          onDismiss={failure.dismiss}
        >
          <Stack gap="sm">
            {isAdmin && (
              <SelectionBar
                count={selection.size}
                noun={['record', 'records']}
                deleting={removeMany.isPending}
                onDelete={() => void deleteSelected()}
                onClear={clearSelection}
                extra={
                  <BulkOperationButton
                    operation="dns.record.update"
                    keys={[...selection]}
                    filter={bulkFilter}
                  />
                }
              />
            )}
            <RecordsTable
              records={rows}
              onEdit={setEditing}
              onDelete={(r) => void deleteRecord(r)}
              deletingId={remove.isPending ? (remove.variables?.id ?? null) : null}
              emptyText={filtered ? 'No records found matching your criteria' : 'No DNS records found'}
              sort={sort}
              onSortChange={setSort}
              selection={isAdmin ? selection : undefined}
              onSelectionChange={isAdmin ? setSelection : undefined}
              pager={pager}
            />
          </Stack>
        </LoadState>
      </Card>
      {!isAdmin ? null : system.error ? (
        <Alert color="red" title="Failed to load system records" mt="lg" role="alert">
          {errorMessage(system.error)}
        </Alert>
      ) : (
        system.data && <SystemRecords records={system.data} />
      )}
      {editing && (
        <Modal
          opened
          onClose={() => setEditing(null)}
          title="Edit DNS Record"
          size="lg"
          centered
          closeButtonProps={{ 'aria-label': 'Close' }}
        >
          <RecordForm record={editing} onDone={() => setEditing(null)} />
        </Modal>
      )}
    </>
  );
}
