import { Code, Group, Modal, ScrollArea, Text } from '@mantine/core';
import { CopyButton } from '../../../components/copy-button.tsx';
import { LoadState } from '../../../components/load-state.tsx';
import { useDismissableError } from '../use-dismissable-error.ts';
import { useZoneFile } from '../use-zone-file.ts';

/** The zone file exactly as rendered for BIND. */
export function ZoneFileModal({ domain, onClose }: { domain: string; onClose: () => void }) {
  const file = useZoneFile(domain);
  const failure = useDismissableError(file.error);
  return (
    <Modal
      opened
      onClose={onClose}
      title={`Zone File: ${domain}`}
      size="xl"
      centered
      closeButtonProps={{ 'aria-label': 'Close zone file' }}
    >
      <LoadState
        loading={file.isPending && !file.error}
        error={failure.message}
        errorTitle="Failed to load the zone file"
        loadingLabel="Loading zone file..."
        onRetry={() => void file.refetch()}
        onDismiss={failure.dismiss}
      >
        {file.data && (
          <>
            <Group justify="space-between" mb="xs">
              <Text size="sm" c="dimmed">
                Serial {file.data.serial}
              </Text>
              <CopyButton value={file.data.content} label="Copy zone file" />
            </Group>
            <ScrollArea.Autosize mah="60vh" type="auto">
              <Code block style={{ whiteSpace: 'pre' }} data-testid="zone-file-content">
                {file.data.content}
              </Code>
            </ScrollArea.Autosize>
          </>
        )}
      </LoadState>
    </Modal>
  );
}
