import { VHOST_STATUS_FILTER, webMessages } from '@mailroom/contract/web';
import { Group, Loader, Select, TextInput } from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';

// Mantine's Select needs a non-empty value for All Status.
const ALL = 'all';

/** The list's search box (domain or document root) and status filter (spec 3 §2.2). */
export function VhostListFilters({
  search,
  onSearch,
  status,
  onStatus,
  refreshing,
}: {
  search: string;
  onSearch: (text: string) => void;
  status: string;
  onStatus: (status: string) => void;
  refreshing: boolean;
}) {
  return (
    <Group mb="sm" wrap="wrap" gap="sm">
      <TextInput
        aria-label="Search virtual hosts"
        placeholder={webMessages.searchPlaceholder}
        leftSection={<IconSearch size={16} aria-hidden />}
        value={search}
        onChange={(e) => onSearch(e.currentTarget.value)}
        style={{ flex: 1, minWidth: 200, maxWidth: 420 }}
      />
      <Select
        aria-label="Filter by status"
        data={VHOST_STATUS_FILTER.map((o) => ({ value: o.value || ALL, label: o.label }))}
        value={status || ALL}
        onChange={(v) => onStatus(v === null || v === ALL ? '' : v)}
        allowDeselect={false}
        w={170}
      />
      {refreshing && <Loader size="sm" aria-label="Refreshing virtual hosts" />}
    </Group>
  );
}
