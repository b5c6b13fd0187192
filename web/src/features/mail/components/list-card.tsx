import { Card, Group, Loader, Stack, TextInput } from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';
import { type ReactNode, useState } from 'react';
import { errorMessage } from '../../../api/client.ts';
import { LoadState } from '../../../components/load-state.tsx';

export interface ListCardProps {
  /** The search box (bound to the URL's ?q=): its accessible name, placeholder and text. */
  searchLabel: string;
  searchPlaceholder: string;
  search: string;
  onSearch: (text: string) => void;
  /** Filters beside the search box. */
  filters?: ReactNode;
  /** The list's query (TanStack Query): loading, refreshing, failed, answered. */
  list: {
    data: unknown;
    isPending: boolean;
    isFetching: boolean;
    isError: boolean;
    error: unknown;
    refetch: () => Promise<unknown>;
  };
  refreshingLabel: string;
  errorTitle: string;
  loadingLabel: string;
  /** The selection bar and the table, shown once the list has answered. */
  children: ReactNode;
}

/**
 * The card of a mail list screen: the search box and filters (a spinner while a new page loads)
 * above the list; its load error with Try Again and Dismiss.
 */
export function ListCard({
  searchLabel,
  searchPlaceholder,
  search,
  onSearch,
  filters,
  list,
  refreshingLabel,
  errorTitle,
  loadingLabel,
  children,
}: ListCardProps) {
  const [errorDismissed, setErrorDismissed] = useState(false);
  return (
    <Card withBorder radius="md" padding="md">
      <Group justify="space-between" mb="sm" wrap="wrap" gap="sm">
        <TextInput
          aria-label={searchLabel}
          placeholder={searchPlaceholder}
          leftSection={<IconSearch size={16} aria-hidden />}
          value={search}
          onChange={(e) => onSearch(e.currentTarget.value)}
          style={{ flex: 1, minWidth: 200, maxWidth: 420 }}
        />
        {filters}
        {list.isFetching && !list.isPending && <Loader size="sm" aria-label={refreshingLabel} />}
      </Group>
      <LoadState
        loading={list.isPending && !errorDismissed}
        error={list.isError && !errorDismissed ? errorMessage(list.error) : null}
        errorTitle={errorTitle}
        loadingLabel={loadingLabel}
        onRetry={() => {
          setErrorDismissed(false);
          void list.refetch();
        }}
        onDismiss={() => setErrorDismissed(true)}
      >
        {list.data !== undefined && <Stack gap="sm">{children}</Stack>}
      </LoadState>
    </Card>
  );
}
