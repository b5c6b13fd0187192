import type { VirtualHost } from '@mailroom/contract/web';
import { ActionIcon, Group, Tooltip } from '@mantine/core';
import { IconEye, IconPencil, IconPlayerPause, IconPlayerPlay, IconTrash } from '@tabler/icons-react';

export interface VhostRowActionsProps {
  vhost: VirtualHost;
  onEdit: (v: VirtualHost) => void;
  onView: (v: VirtualHost) => void;
  /** Without it (the dashboard's table) there is no toggle and no delete. */
  onToggle?: ((v: VirtualHost) => void) | undefined;
  onDelete?: ((v: VirtualHost) => void) | undefined;
  toggling?: boolean;
  deleting?: boolean;
}

/** Edit, view, Enable/Disable (pause or play icon) and delete of a virtual host row (spec 3 §2.2). */
export function VhostRowActions({
  vhost,
  onEdit,
  onView,
  onToggle,
  onDelete,
  toggling,
  deleting,
}: VhostRowActionsProps) {
  const active = vhost.status === 'active';
  const toggleTitle = active ? 'Disable' : 'Enable';
  return (
    <Group gap={4} justify="flex-end" wrap="nowrap">
      <Tooltip label="Edit">
        <ActionIcon variant="subtle" aria-label={`Edit ${vhost.domain}`} onClick={() => onEdit(vhost)}>
          <IconPencil size={18} aria-hidden />
        </ActionIcon>
      </Tooltip>
      <Tooltip label="View">
        <ActionIcon variant="subtle" aria-label={`View ${vhost.domain}`} onClick={() => onView(vhost)}>
          <IconEye size={18} aria-hidden />
        </ActionIcon>
      </Tooltip>
      {onToggle && (
        <Tooltip label={toggleTitle}>
          <ActionIcon
            variant="subtle"
            color={active ? 'orange' : 'green'}
            aria-label={`${toggleTitle} ${vhost.domain}`}
            title={toggleTitle}
            onClick={() => onToggle(vhost)}
            loading={toggling}
          >
            {active ? <IconPlayerPause size={18} aria-hidden /> : <IconPlayerPlay size={18} aria-hidden />}
          </ActionIcon>
        </Tooltip>
      )}
      {onDelete && (
        <Tooltip label="Delete">
          <ActionIcon
            variant="subtle"
            color="red"
            aria-label={`Delete ${vhost.domain}`}
            onClick={() => onDelete(vhost)}
            loading={deleting}
          >
            <IconTrash size={18} aria-hidden />
          </ActionIcon>
        </Tooltip>
      )}
    </Group>
  );
}
