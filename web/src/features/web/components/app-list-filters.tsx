import { APP_STATUS_FILTER, APP_TYPE_FILTER, appMessages } from '@mailroom/contract/web';
import { Group, Loader, Select, TextInput } from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';

// Mantine's Select needs a non-empty value for All Types / All Status.
const ALL = 'all';
const toData = (o: readonly { value: string; label: string }[]) =>
  o.map((x) => ({ value: x.value || ALL, label: x.label }));

/** Search (name, domain or description), type and status filters (spec 3 §2.3). */
export function AppListFilters({
  search,
  onSearch,
  type,
  onType,
  status,
  onStatus,
  refreshing,
}: {
  search: string;
  onSearch: (text: string) => void;
  type: string;
  onType: (type: string) => void;
  status: string;
  onStatus: (status: string) => void;
  refreshing: boolean;
}) {
  return (
    <Group mb="sm" wrap="wrap" gap="sm">
      <TextInput
        aria-label="Search applications"
        placeholder={appMessages.searchPlaceholder}
        leftSection={<IconSearch size={16} aria-hidden />}
        value={search}
        onChange={(e) => onSearch(e.currentTarget.value)}
        style={{ flex: 1, minWidth: 200, maxWidth: 420 }}
      />
      <Select
        aria-label="Filter by type"
        data={toData(APP_TYPE_FILTER)}
        value={type || ALL}
        onChange={(v) => onType(v === null || v === ALL ? '' : v)}
        allowDeselect={false}
        w={150}
      />
      <Select
        aria-label="Filter by status"
        data={toData(APP_STATUS_FILTER)}
        value={status || ALL}
        onChange={(v) => onStatus(v === null || v === ALL ? '' : v)}
        allowDeselect={false}
        w={150}
      />
      {refreshing && <Loader size="sm" aria-label="Refreshing applications" />}
    </Group>
  );
}
