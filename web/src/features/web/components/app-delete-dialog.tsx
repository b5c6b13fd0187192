import { appMessages, type WebApplicationSummary } from '@mailroom/contract/web';
import { Button, Checkbox, Group, Modal, Stack, Text } from '@mantine/core';
import { useState } from 'react';

/**
 * Delete's confirmation (spec 3 §2.3 text), which also asks whether to keep the release folders
 * (kept unless unticked).
 */
export function AppDeleteDialog({
  app,
  onCancel,
  onConfirm,
}: {
  app: WebApplicationSummary | null;
  onCancel: () => void;
  onConfirm: (app: WebApplicationSummary, keepFiles: boolean) => void;
}) {
  return (
    <Modal opened={app !== null} onClose={onCancel} title="Delete Web Application" centered>
      {app && <Body key={app.name} app={app} onCancel={onCancel} onConfirm={onConfirm} />}
    </Modal>
  );
}

function Body({
  app,
  onCancel,
  onConfirm,
}: {
  app: WebApplicationSummary;
  onCancel: () => void;
  onConfirm: (app: WebApplicationSummary, keepFiles: boolean) => void;
}) {
  const [keepFiles, setKeepFiles] = useState(true);
  return (
    <Stack gap="md">
      <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
        {appMessages.deleteConfirm(app.name)}
      </Text>
      <Text size="sm" c="dimmed">
        Its processes are stopped and its virtual host {app.domain} is deleted.
      </Text>
      <Checkbox
        label="Keep the release folders"
        description={
          keepFiles
            ? `${app.deploymentPath} stays on disk.`
            : `${app.deploymentPath} is deleted with the application.`
        }
        checked={keepFiles}
        onChange={(e) => setKeepFiles(e.currentTarget.checked)}
      />
      <Group justify="flex-end" gap="xs">
        <Button variant="default" onClick={onCancel}>
          Cancel
        </Button>
        <Button color="red" onClick={() => onConfirm(app, keepFiles)}>
          Delete
        </Button>
      </Group>
    </Stack>
  );
}
