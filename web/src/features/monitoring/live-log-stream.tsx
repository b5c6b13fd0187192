import { LOG_STREAM_PATH, type LogEntry } from '@mailroom/contract/system-live';
import { Badge, Button, Card, Group, ScrollArea, Stack, Text } from '@mantine/core';
import { IconPlayerPause, IconPlayerPlay, IconTrash } from '@tabler/icons-react';
import { useEffect, useState } from 'react';

/** Spec §9: the live log stream keeps the newest 50 entries. */
export const LOG_CAP = 50;
const LEVEL = { error: 'ERROR', warning: 'WARN', info: 'INFO', debug: 'DEBUG' } as const;
const COLOR = { error: 'red', warning: 'yellow', info: 'blue', debug: 'gray' } as const;

/** New lines of the mail log as the server sees them (SSE); active by default, Pause/Resume, Clear. */
export function LiveLogStream() {
  const [active, setActive] = useState(true);
  const [entries, setEntries] = useState<LogEntry[]>([]);
  const [origin, setOrigin] = useState<string | null>(null);

  useEffect(() => {
    if (!active || typeof EventSource === 'undefined') return;
    const source = new EventSource(`${LOG_STREAM_PATH}?source=mail`, { withCredentials: true });
    source.addEventListener('ready', (e) => {
      try {
        setOrigin((JSON.parse(String((e as MessageEvent<unknown>).data)) as { origin: string }).origin);
      } catch {
        /* keep the last */
      }
    });
    source.addEventListener('log', (e) => {
      try {
        const entry = JSON.parse(String((e as MessageEvent<unknown>).data)) as LogEntry;
        setEntries((list) => [entry, ...list].slice(0, LOG_CAP));
      } catch {
        /* a line that is not an entry */
      }
    });
    return () => source.close();
  }, [active]);

  return (
    <Card withBorder radius="md" padding="md">
      <Group justify="space-between" mb="sm" wrap="wrap">
        <div>
          <Text fw={600}>Live Log Stream</Text>
          <Text size="xs" c="dimmed">
            {active ? 'Streaming' : 'Paused'}
            {origin ? ` · ${origin}` : ''}
          </Text>
        </div>
        <Group gap="xs">
          <Button
            size="xs"
            variant="default"
            leftSection={
              active ? <IconPlayerPause size={14} aria-hidden /> : <IconPlayerPlay size={14} aria-hidden />
            }
            onClick={() => setActive((a) => !a)}
          >
            {active ? 'Pause' : 'Resume'}
          </Button>
          <Button
            size="xs"
            variant="default"
            leftSection={<IconTrash size={14} aria-hidden />}
            onClick={() => setEntries([])}
          >
            Clear
          </Button>
        </Group>
      </Group>
      <ScrollArea h={260} type="auto">
        <Stack gap={4} data-testid="live-log">
          {entries.length === 0 && (
            <Text size="sm" c="dimmed">
              Waiting for new log lines…
            </Text>
          )}
          {entries.map((e) => (
            <Group key={`${e.id}-${e.timestamp}`} gap="xs" wrap="nowrap" align="flex-start">
              <Text size="xs" c="dimmed" ff="monospace" style={{ whiteSpace: 'nowrap' }}>
                {new Date(e.timestamp).toLocaleTimeString()}
              </Text>
              <Badge size="xs" color={COLOR[e.level]} variant="light" miw={52}>
                {LEVEL[e.level]}
              </Badge>
              <Text size="xs" ff="monospace" style={{ overflowWrap: 'anywhere' }}>
                {e.service}: {e.message}
              </Text>
            </Group>
          ))}
        </Stack>
      </ScrollArea>
    </Card>
  );
}
