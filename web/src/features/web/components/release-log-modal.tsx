import type { WebAppRelease } from '@mailroom/contract/web';
import { Alert, Button, Group, Loader, Modal, Stack, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useState } from 'react';
import { errorMessage } from '../../../api/client.ts';
import { RELEASE_LOG_PAGE, useReleaseLog } from '../use-release-log.ts';
import { DeployLogView } from './deploy-log-view.tsx';

/** The stored build log of one release, read-only, RELEASE_LOG_PAGE lines a page. */
export function ReleaseLogModal({
  app,
  release,
  onClose,
}: {
  app: string;
  release: WebAppRelease | null;
  onClose: () => void;
}) {
  const phone = useMediaQuery('(max-width: 36em)');
  return (
    <Modal
      opened={release !== null}
      onClose={onClose}
      title={release ? `Build log of release #${release.number}` : 'Build log'}
      size="xl"
      fullScreen={phone}
      closeButtonProps={{ 'aria-label': 'Close' }}
    >
      {release && <ReleaseLogBody key={release.id} app={app} release={release} />}
    </Modal>
  );
}

function ReleaseLogBody({ app, release }: { app: string; release: WebAppRelease }) {
  const [page, setPage] = useState(0);
  const after = page * RELEASE_LOG_PAGE;
  const log = useReleaseLog(app, release.jobId, after);
  if (release.jobId === null)
    return (
      <Text size="sm" c="dimmed">
        This release has no stored log.
      </Text>
    );
  if (log.isPending) return <Loader size="sm" aria-label="Loading the build log…" />;
  if (log.isError)
    return (
      <Alert color="red" variant="light" role="alert" title="Failed to load the build log">
        {errorMessage(log.error)}
      </Alert>
    );
  const lines = log.data.lines;
  const first = lines[0]?.seq ?? after;
  const paged = page > 0 || !log.data.done;
  return (
    <Stack gap="sm">
      <Text size="xs" c="dimmed">
        {release.trigger === 'rollback' ? 'Rollback' : `Deploy of ${release.ref}`}
        {release.commit ? ` · ${release.commit.slice(0, 12)}` : ''} · {release.state}
        {release.message ? ` · ${release.message}` : ''}
      </Text>
      <DeployLogView
        lines={lines}
        label={`Build log of release ${release.number}`}
        empty={page > 0 ? 'No more lines.' : 'No lines were stored for this release.'}
      />
      {paged && (
        <Group justify="space-between" wrap="nowrap">
          <Button
            size="compact-sm"
            variant="default"
            disabled={page === 0 || log.isFetching}
            onClick={() => setPage((p) => p - 1)}
          >
            Previous lines
          </Button>
          <Text size="xs" c="dimmed" aria-live="polite">
            {lines.length ? `Lines ${first}–${lines.at(-1)!.seq}` : '—'}
          </Text>
          <Button
            size="compact-sm"
            variant="default"
            disabled={log.data.done || log.isFetching}
            onClick={() => setPage((p) => p + 1)}
          >
            Next lines
          </Button>
        </Group>
      )}
    </Stack>
  );
}
