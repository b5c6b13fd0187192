import { type BulkItem, type ItemState, type PlanAction, itemResultLabel } from '@mailroom/contract/bulk';
import { SegmentedControl, Stack, Text } from '@mantine/core';
import type { ColumnDef } from '@tanstack/react-table';
import { useMemo, useState } from 'react';
import { DataTable } from '../../../components/data-table/data-table.tsx';
import { StatusBadge } from '../../../components/status-badge.tsx';
import { useBulkItems } from '../use-bulk-items.ts';

const PAGE = 50;

export const ACTION_LABELS: Record<PlanAction, string> = {
  create: 'create',
  update: 'update',
  delete: 'delete',
  run: 'run',
  skip: 'skip',
  invalid: 'invalid',
};

const RESULT_TONES: Record<ItemState, string> = {
  pending: 'pending',
  succeeded: 'success',
  failed: 'failed',
  not_processed: 'stopped',
  skipped: 'info',
};

const brief = (v: unknown) => (v === null || v === undefined ? '' : JSON.stringify(v));

/** A plan's or a run's items with what each will do or did, and why (reasons, errors, before/after). */
export function ItemsTable({
  runId,
  mode,
  live = false,
}: {
  runId: number;
  /** plan: filter by action; results: by result. */
  mode: 'plan' | 'results';
  live?: boolean;
}) {
  const [filter, setFilter] = useState('');
  const [page, setPage] = useState(1);
  const q = {
    limit: PAGE,
    offset: (page - 1) * PAGE,
    ...(filter ? (mode === 'plan' ? { action: filter as PlanAction } : { state: filter as ItemState }) : {}),
  };
  const items = useBulkItems(runId, q, live);
  const columns = useMemo<ColumnDef<BulkItem, unknown>[]>(
    () => [
      { id: 'seq', header: '#', accessorFn: (r) => r.seq, meta: { hideOnCard: true } },
      { id: 'item', header: 'Item', accessorFn: (r) => r.label, meta: { title: true } },
      { id: 'action', header: 'Plan', accessorFn: (r) => ACTION_LABELS[r.action] },
      ...(mode === 'results'
        ? [
            {
              id: 'result',
              header: 'Result',
              cell: ({ row }) => (
                <StatusBadge
                  status={RESULT_TONES[row.original.state]}
                  label={itemResultLabel(row.original.state)}
                  style={{ minWidth: 'max-content' }}
                />
              ),
              meta: { label: 'Result' },
            } satisfies ColumnDef<BulkItem, unknown>,
          ]
        : []),
      {
        id: 'why',
        header: mode === 'plan' ? 'Reason' : 'Reason / error',
        accessorFn: (r) =>
          [r.errorCode && r.errorMessage ? `${r.errorCode}: ${r.errorMessage}` : '', r.reason ?? '']
            .filter(Boolean)
            .join(' · '),
      },
      {
        id: 'change',
        header: 'Before → after',
        accessorFn: (r) =>
          r.before || r.after ? `${brief(r.before)}${r.after ? ` → ${brief(r.after)}` : ''}` : '',
        meta: { hideOnCard: mode === 'plan' },
      },
    ],
    [mode],
  );
  const choices =
    mode === 'plan'
      ? [
          { value: '', label: 'All' },
          { value: 'create', label: 'Create' },
          { value: 'update', label: 'Update' },
          { value: 'delete', label: 'Delete' },
          { value: 'skip', label: 'Skip' },
          { value: 'invalid', label: 'Invalid' },
        ]
      : [
          { value: '', label: 'All' },
          { value: 'succeeded', label: 'Succeeded' },
          { value: 'failed', label: 'Failed' },
          { value: 'not_processed', label: 'Not processed' },
          { value: 'skipped', label: 'Skipped' },
        ];
  return (
    <Stack gap="xs">
      <SegmentedControl
        size="xs"
        data={choices}
        value={filter}
        onChange={(v) => {
          setFilter(v);
          setPage(1);
        }}
        aria-label="Show items"
        style={{ overflowX: 'auto' }}
      />
      {items.error && <Text c="red">Could not load the items.</Text>}
      <DataTable
        label={mode === 'plan' ? 'Planned items' : 'Item results'}
        data={items.data?.items ?? []}
        columns={columns}
        getRowId={(r) => String(r.seq)}
        emptyText="No items"
        pager={{ page, pageSize: PAGE, total: items.data?.total ?? 0, onPage: setPage, noun: 'items' }}
        minWidth={640}
      />
    </Stack>
  );
}
