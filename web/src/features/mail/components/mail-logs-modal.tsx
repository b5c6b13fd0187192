import { Alert, Button, Code, Group, Loader, Modal, ScrollArea, Stack, Text } from '@mantine/core';
import { errorMessage } from '../../../api/client.ts';
import { MAIL_LOG_LINES, useMailLogs } from '../use-mail-logs.ts';

/** The recent Postfix/Dovecot log lines, or why none could be read. */
export function MailLogsModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const logs = useMailLogs(opened);
  return (
    <Modal opened={opened} onClose={onClose} title="Mail Logs" size="xl" centered>
      <Stack gap="sm">
        {logs.isPending && (
          <Group gap="xs" role="status">
            <Loader size="sm" aria-hidden />
            <Text size="sm">Loading mail logs…</Text>
          </Group>
        )}
        {logs.isError && (
          <Alert color="red" variant="light" title="Failed to load mail logs" role="alert">
            <Text size="sm">{errorMessage(logs.error)}</Text>
          </Alert>
        )}
        {logs.data && logs.data.message && (
          <Alert color="yellow" variant="light" role="status">
            <Text size="sm">{logs.data.message}</Text>
          </Alert>
        )}
        {logs.data && logs.data.source && (
          <Text size="sm" c="dimmed">
            Last {Math.min(logs.data.lines.length, MAIL_LOG_LINES)} lines from {logs.data.source}
          </Text>
        )}
        {logs.data && logs.data.lines.length > 0 && (
          <ScrollArea.Autosize mah="60vh" type="auto">
            <Code block style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}>
              {logs.data.lines.join('\n')}
            </Code>
          </ScrollArea.Autosize>
        )}
        {logs.data && logs.data.source && logs.data.lines.length === 0 && (
          <Text size="sm" c="dimmed">
            The log has no mail lines yet.
          </Text>
        )}
        <Group justify="flex-end" gap="xs">
          <Button variant="default" onClick={() => void logs.refetch()} loading={logs.isFetching}>
            Refresh
          </Button>
          <Button onClick={onClose}>Close</Button>
        </Group>
      </Stack>
    </Modal>
  );
}
