import type { WebApplicationSummary } from '@mailroom/contract/web';
import { ActionIcon, Group, Tooltip } from '@mantine/core';
import {
  IconEye,
  IconPencil,
  IconPlayerPause,
  IconPlayerPlay,
  IconRocket,
  IconTrash,
} from '@tabler/icons-react';

export interface AppRowActionsProps {
  app: WebApplicationSummary;
  onEdit: (a: WebApplicationSummary) => void;
  onView: (a: WebApplicationSummary) => void;
  onDeploy: (a: WebApplicationSummary) => void;
  onToggle: (a: WebApplicationSummary) => void;
  onDelete: (a: WebApplicationSummary) => void;
  deploying?: boolean;
  toggling?: boolean;
  deleting?: boolean;
}

/** Edit, view, deploy, Start/Stop (title Stop when active, Start otherwise) and delete (spec 3 §2.3). */
export function AppRowActions({
  app,
  onEdit,
  onView,
  onDeploy,
  onToggle,
  onDelete,
  deploying,
  toggling,
  deleting,
}: AppRowActionsProps) {
  const active = app.status === 'active';
  const toggleTitle = active ? 'Stop' : 'Start';
  const busy = app.status === 'deploying';
  return (
    <Group gap={4} justify="flex-end" wrap="nowrap">
      <Tooltip label="Edit">
        <ActionIcon variant="subtle" aria-label={`Edit ${app.name}`} onClick={() => onEdit(app)}>
          <IconPencil size={18} aria-hidden />
        </ActionIcon>
      </Tooltip>
      <Tooltip label="View">
        <ActionIcon variant="subtle" aria-label={`View ${app.name}`} onClick={() => onView(app)}>
          <IconEye size={18} aria-hidden />
        </ActionIcon>
      </Tooltip>
      <Tooltip label={busy ? 'Deploying: follow its log' : 'Deploy'}>
        <ActionIcon
          variant="subtle"
          color="blue"
          aria-label={`Deploy ${app.name}`}
          onClick={() => onDeploy(app)}
          loading={deploying}
        >
          <IconRocket size={18} aria-hidden />
        </ActionIcon>
      </Tooltip>
      <Tooltip label={toggleTitle}>
        <ActionIcon
          variant="subtle"
          color={active ? 'orange' : 'green'}
          aria-label={`${toggleTitle} ${app.name}`}
          title={toggleTitle}
          onClick={() => onToggle(app)}
          loading={toggling}
          disabled={busy}
        >
          {active ? <IconPlayerPause size={18} aria-hidden /> : <IconPlayerPlay size={18} aria-hidden />}
        </ActionIcon>
      </Tooltip>
      <Tooltip label="Delete">
        <ActionIcon
          variant="subtle"
          color="red"
          aria-label={`Delete ${app.name}`}
          onClick={() => onDelete(app)}
          loading={deleting}
        >
          <IconTrash size={18} aria-hidden />
        </ActionIcon>
      </Tooltip>
    </Group>
  );
}
