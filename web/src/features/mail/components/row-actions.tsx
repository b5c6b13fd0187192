import { ActionIcon, Group, Tooltip } from '@mantine/core';
import { IconPencil, IconTrash } from '@tabler/icons-react';

/**
 * The Edit and Delete icons of a mailbox or alias row, named for screen readers. Without `onDelete`
 * (a required address, which cannot be removed) there is no Delete icon.
 */
export function RowActions({
  name,
  onEdit,
  onDelete,
  deleting,
}: {
  name: string;
  onEdit: () => void;
  onDelete?: (() => void) | undefined;
  deleting: boolean;
}) {
  return (
    <Group gap={4} justify="flex-end" wrap="nowrap">
      <Tooltip label="Edit">
        <ActionIcon variant="subtle" aria-label={`Edit ${name}`} onClick={onEdit}>
          <IconPencil size={18} aria-hidden />
        </ActionIcon>
      </Tooltip>
      {onDelete && (
        <Tooltip label="Delete">
          <ActionIcon
            variant="subtle"
            color="red"
            aria-label={`Delete ${name}`}
            onClick={onDelete}
            loading={deleting}
          >
            <IconTrash size={18} aria-hidden />
          </ActionIcon>
        </Tooltip>
      )}
    </Group>
  );
}
