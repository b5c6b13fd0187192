import type { WebAppRelease, WebApplication } from '@mailroom/contract/web';
import { ActionIcon, Alert, Badge, Button, Group, Loader, Stack, Table, Text, Tooltip } from '@mantine/core';
import { IconArrowBackUp, IconFileText } from '@tabler/icons-react';
import { useState } from 'react';
import { errorMessage } from '../../../api/client.ts';
import { formatBytes } from '../app-format.ts';
import { useAppReleases } from '../use-app-releases.ts';
import { formatLastModified } from '../web-format.ts';
import { ReleaseLogModal } from './release-log-modal.tsx';

const STATE_COLOR: Record<WebAppRelease['state'], string> = {
  building: 'blue',
  starting: 'blue',
  live: 'green',
  retired: 'gray',
  failed: 'red',
};

/** A release may run again when it once served and its folder is still on disk. */
export const canRollBackTo = (r: WebAppRelease): boolean => r.state === 'retired' && r.path !== null;

const seconds = (n: number | null) => (n === null ? '—' : `${n.toFixed(1)} s`);

/** The release history, newest first, with Rollback on each earlier release still on disk. */
export function AppReleases({
  app,
  busy,
  onRollback,
  onLogOpen,
}: {
  app: WebApplication;
  busy: boolean;
  onRollback: (r: WebAppRelease) => void;
  /** The build log dialog opened or closed (the panel around it leaves Escape to it). */
  onLogOpen?: (open: boolean) => void;
}) {
  const releases = useAppReleases(app.name);
  const [logOf, setLogOfState] = useState<WebAppRelease | null>(null);
  const setLogOf = (r: WebAppRelease | null) => {
    setLogOfState(r);
    onLogOpen?.(r !== null);
  };
  if (releases.isPending) return <Loader size="sm" aria-label="Loading releases…" />;
  if (releases.isError)
    return (
      <Alert color="red" variant="light" role="alert" title="Failed to load releases">
        {errorMessage(releases.error)}
      </Alert>
    );
  if (releases.data.length === 0)
    return (
      <Text size="sm" c="dimmed">
        No releases yet: deploy the application to make its first.
      </Text>
    );
  return (
    <>
      <ReleaseLogModal app={app.name} release={logOf} onClose={() => setLogOf(null)} />
      <Table.ScrollContainer minWidth={600}>
        <Table striped verticalSpacing={6} aria-label={`Releases of ${app.name}`}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Release</Table.Th>
              <Table.Th>State</Table.Th>
              <Table.Th>Commit</Table.Th>
              <Table.Th>Deployed</Table.Th>
              <Table.Th>Switch</Table.Th>
              <Table.Th>Disk</Table.Th>
              <Table.Th aria-label="Actions" />
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {releases.data.map((r) => (
              <Table.Tr key={r.id} data-release={r.number}>
                <Table.Td>
                  <Stack gap={0}>
                    <Text size="sm" fw={500}>
                      #{r.number}
                    </Text>
                    <Text size="xs" c="dimmed">
                      {r.trigger === 'rollback' ? 'rollback' : r.ref}
                      {r.startedBy ? ` · ${r.startedBy}` : ''}
                    </Text>
                  </Stack>
                </Table.Td>
                <Table.Td>
                  <Badge
                    color={STATE_COLOR[r.state]}
                    variant="light"
                    size="sm"
                    style={{ minWidth: 'max-content' }}
                  >
                    {r.state}
                  </Badge>
                </Table.Td>
                <Table.Td>
                  <Text size="xs" ff="monospace">
                    {r.commit ? r.commit.slice(0, 10) : '—'}
                  </Text>
                </Table.Td>
                <Table.Td>
                  <Text size="xs">{formatLastModified(r.finishedAt ?? r.createdAt)}</Text>
                </Table.Td>
                <Table.Td>
                  <Text size="xs">{seconds(r.timings.switch)}</Text>
                </Table.Td>
                <Table.Td>
                  <Text size="xs">{r.path === null ? 'pruned' : formatBytes(r.diskUsage)}</Text>
                </Table.Td>
                <Table.Td>
                  <Group justify="flex-end" gap={6} wrap="nowrap">
                    {r.jobId !== null && (
                      <Tooltip label="Build log">
                        <ActionIcon
                          size="sm"
                          variant="subtle"
                          onClick={() => setLogOf(r)}
                          aria-label={`Build log of release ${r.number}`}
                        >
                          <IconFileText size={16} aria-hidden />
                        </ActionIcon>
                      </Tooltip>
                    )}
                    {canRollBackTo(r) && (
                      <Button
                        size="compact-xs"
                        variant="light"
                        leftSection={<IconArrowBackUp size={14} aria-hidden />}
                        disabled={busy}
                        onClick={() => onRollback(r)}
                        aria-label={`Rollback to release ${r.number}`}
                      >
                        Rollback
                      </Button>
                    )}
                  </Group>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </>
  );
}
