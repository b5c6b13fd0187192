import { Group, Pagination, Text } from '@mantine/core';

const CONTROL_LABELS = {
  first: 'First page',
  previous: 'Previous page',
  next: 'Next page',
  last: 'Last page',
} as const;

export interface ListPagerProps {
  page: number;
  pageSize: number;
  total: number;
  /** `total` is where the server stopped counting: there are more. */
  capped?: boolean | undefined;
  onPage: (page: number) => void;
  noun: string;
}

/** 'Showing 51–100 of 100,000 mailboxes' and the page buttons of a server-paged list. */
export function ListPager({ page, pageSize, total, capped, onPage, noun }: ListPagerProps) {
  if (total === 0) return null;
  const pages = Math.max(1, Math.ceil(total / pageSize));
  const from = (page - 1) * pageSize + 1;
  const to = Math.min(total, page * pageSize);
  return (
    <Group justify="space-between" mt="md" gap="sm" wrap="wrap">
      <Text size="sm" c="dimmed" aria-live="polite">
        Showing {from.toLocaleString()}–{to.toLocaleString()} of {total.toLocaleString()}
        {capped ? '+' : ''} {noun}
      </Text>
      {pages > 1 && (
        <Pagination
          total={pages}
          value={page}
          onChange={onPage}
          size="sm"
          siblings={1}
          boundaries={1}
          aria-label={`Pages of ${noun}`}
          getItemProps={(p) => ({ 'aria-label': `Page ${p}` })}
          getControlProps={(control) => ({ 'aria-label': CONTROL_LABELS[control] })}
        />
      )}
    </Group>
  );
}
