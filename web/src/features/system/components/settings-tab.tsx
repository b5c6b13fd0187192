import type { SystemSetting, SystemSettingsAnswer } from '@mailroom/contract/system-admin';
import { Box, Button, Group, Select, Text, TextInput } from '@mantine/core';
import type { ColumnDef } from '@tanstack/react-table';
import { useState } from 'react';
import { ApiError, errorMessage } from '../../../api/client.ts';
import { confirmAction } from '../../../components/confirm-action.ts';
import { notify } from '../../../lib/notifications-store.ts';
import { useResetSettings, useSaveSettingValues } from '../use-system-admin.ts';
import { TableCard } from './table-card.tsx';

const FILTERS = ['All', 'General', 'Security', 'Network', 'Storage', 'Modified'] as const;
type Filter = (typeof FILTERS)[number];
const rowId = (s: SystemSetting) => s.id;

/** The settings table (spec §2.10): edit and reset per row, Save All and Reset All. */
export function SettingsTab({ data }: { data: SystemSettingsAnswer }) {
  const [filter, setFilter] = useState<Filter>('All');
  const [edits, setEdits] = useState<Record<string, string>>({});
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [editing, setEditing] = useState<string | null>(null);
  const save = useSaveSettingValues();
  const reset = useResetSettings();
  const pending = Object.keys(edits).length;
  const saveAll = (values: Record<string, string>) =>
    save.mutate(values, {
      onSuccess: () => {
        setEdits({});
        setErrors({});
        setEditing(null);
        notify({
          type: 'success',
          title: 'Settings saved',
          message: `${Object.keys(values).length} setting(s) saved.`,
          key: 'settings.save',
        });
      },
      onError: (err) => {
        // An error shown at its field is not repeated in a toast.
        if (err instanceof ApiError && Object.keys(err.fieldErrors).length) setErrors(err.fieldErrors);
        else
          notify({ type: 'error', title: 'Saving failed', message: errorMessage(err), key: 'settings.save' });
      },
    });
  const resetAll = async () => {
    if (
      await confirmAction({
        title: 'Reset all settings',
        message: 'Put every setting back to its default?',
        confirmLabel: 'Reset All',
        danger: true,
      })
    )
      reset.mutate(undefined, {
        onSuccess: () => {
          setEdits({});
          notify({
            type: 'success',
            title: 'Settings reset',
            message: 'Every setting is back to its default.',
          });
        },
        onError: (err) => notify({ type: 'error', title: 'Reset failed', message: errorMessage(err) }),
      });
  };
  const rows = data.settings.filter((s) =>
    filter === 'All' ? true : filter === 'Modified' ? s.modified || s.id in edits : s.category === filter,
  );
  const editor = (s: SystemSetting) => {
    const value = edits[s.id] ?? s.value;
    const set = (v: string) => setEdits((e) => ({ ...e, [s.id]: v }));
    return s.type === 'select' ? (
      <Select
        size="xs"
        aria-label={s.name}
        data={s.options ?? []}
        value={value}
        onChange={(v) => v && set(v)}
        allowDeselect={false}
        error={errors[s.id]}
      />
    ) : (
      <TextInput
        size="xs"
        aria-label={s.name}
        value={value}
        onChange={(e) => set(e.currentTarget.value)}
        error={errors[s.id]}
      />
    );
  };
  const columns: ColumnDef<SystemSetting, unknown>[] = [
    {
      id: 'setting',
      header: 'Setting',
      meta: { title: true },
      cell: ({ row: { original: s } }) => (
        <>
          <Text size="sm" fw={500}>
            {s.name}
            {s.modified ? ' •' : ''}
          </Text>
          <Text size="xs" c="dimmed" fw={400}>
            {s.description}
          </Text>
        </>
      ),
    },
    { id: 'category', header: 'Category', cell: ({ row }) => row.original.category },
    {
      id: 'value',
      header: 'Value',
      cell: ({ row: { original: s } }) => (
        <Box miw={180}>
          {editing === s.id || s.id in edits || s.id in errors ? (
            editor(s)
          ) : (
            <Text size="sm">{s.options?.find((o) => o.value === s.value)?.label ?? s.value}</Text>
          )}
        </Box>
      ),
    },
    {
      id: 'actions',
      header: 'Actions',
      meta: { actions: true },
      cell: ({ row: { original: s } }) => (
        <Group gap={4} wrap="nowrap">
          <Button
            size="compact-xs"
            variant="default"
            onClick={() => setEditing(s.id)}
            aria-label={`Edit ${s.name}`}
          >
            Edit
          </Button>
          <Button
            size="compact-xs"
            variant="default"
            disabled={!s.modified && !(s.id in edits)}
            onClick={() => {
              setEdits((e) => {
                const { [s.id]: _drop, ...rest } = e;
                return rest;
              });
              if (s.modified) saveAll({ [s.id]: s.defaultValue });
            }}
            aria-label={`Reset ${s.name}`}
          >
            Reset
          </Button>
        </Group>
      ),
    },
  ];
  return (
    <TableCard
      title="System Settings"
      filterLabel="Filter settings"
      filters={FILTERS}
      filter={filter}
      onFilter={setFilter}
      actions={
        <>
          <Button
            size="xs"
            variant="default"
            color="red"
            onClick={() => void resetAll()}
            disabled={reset.isPending}
          >
            Reset All
          </Button>
          <Button size="xs" onClick={() => saveAll(edits)} disabled={pending === 0 || save.isPending}>
            {save.isPending ? 'Saving...' : `Save All${pending ? ` (${pending})` : ''}`}
          </Button>
        </>
      }
      data={rows}
      columns={columns}
      getRowId={rowId}
      empty="No settings match this filter."
    />
  );
}
