import { webMessages, type VirtualHost } from '@mailroom/contract/web';
import { Button, Checkbox, Group, Modal, Stack, Text } from '@mantine/core';
import { useState } from 'react';

/**
 * Delete's confirmation (spec 3 §2.2 text), which also asks whether to keep the site's files
 * (kept unless unticked).
 */
export function VhostDeleteDialog({
  vhost,
  onCancel,
  onConfirm,
}: {
  vhost: VirtualHost | null;
  onCancel: () => void;
  onConfirm: (vhost: VirtualHost, keepFiles: boolean) => void;
}) {
  return (
    <Modal opened={vhost !== null} onClose={onCancel} title="Delete Virtual Host" centered>
      {vhost && <Body key={vhost.domain} vhost={vhost} onCancel={onCancel} onConfirm={onConfirm} />}
    </Modal>
  );
}

function Body({
  vhost,
  onCancel,
  onConfirm,
}: {
  vhost: VirtualHost;
  onCancel: () => void;
  onConfirm: (vhost: VirtualHost, keepFiles: boolean) => void;
}) {
  const [keepFiles, setKeepFiles] = useState(true);
  return (
    <Stack gap="md">
      <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
        {webMessages.deleteConfirm(vhost.domain)}
      </Text>
      <Checkbox
        label="Keep the site's files"
        description={
          keepFiles
            ? `${vhost.documentRoot} stays on disk.`
            : `${vhost.documentRoot} is deleted with the virtual host.`
        }
        checked={keepFiles}
        onChange={(e) => setKeepFiles(e.currentTarget.checked)}
      />
      <Group justify="flex-end" gap="xs">
        <Button variant="default" onClick={onCancel}>
          Cancel
        </Button>
        <Button color="red" onClick={() => onConfirm(vhost, keepFiles)}>
          Delete
        </Button>
      </Group>
    </Stack>
  );
}
