import type { BulkFilter, BulkOperationId } from '@mailroom/contract/bulk';
import { Button } from '@mantine/core';
import { IconStack2 } from '@tabler/icons-react';
import { useNavigate } from 'react-router';

export interface BulkOperationButtonProps {
  operation: BulkOperationId;
  /** The selected items' keys (addresses, record or certificate ids). */
  keys?: string[];
  /** The list's current filter (the plan form offers "Filtered" with it). */
  filter?: BulkFilter;
  label?: string;
  disabled?: boolean;
  size?: 'xs' | 'sm';
}

/** "Run a bulk operation on the selection": hands the selection (and the filter) to /bulk-operations. */
export function BulkOperationButton({
  operation,
  keys,
  filter,
  label = 'Bulk operation…',
  disabled,
  size = 'xs',
}: BulkOperationButtonProps) {
  const navigate = useNavigate();
  const clean = filter
    ? (Object.fromEntries(
        Object.entries(filter).filter(([, v]) => v !== undefined && v !== '' && v !== null),
      ) as BulkFilter)
    : undefined;
  return (
    <Button
      size={size}
      variant="light"
      leftSection={<IconStack2 size={14} aria-hidden />}
      disabled={disabled}
      title="Run a bulk operation on the selection"
      onClick={() =>
        void navigate('/bulk-operations', {
          state: {
            bulk: { operation, ...(keys?.length ? { keys } : {}), ...(clean ? { filter: clean } : {}) },
          },
        })
      }
    >
      {label}
    </Button>
  );
}
