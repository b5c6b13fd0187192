import type { ImportMailboxesResponse } from '@mailroom/contract/mail';
import { Alert, Button, Card, Checkbox, FileInput, Group, List, Stack, Text, Title } from '@mantine/core';
import { IconUpload } from '@tabler/icons-react';
import { useState } from 'react';
import { errorMessage } from '../../../api/client.ts';
import { JobProgress } from '../../../components/job-progress.tsx';
import { useImportMailboxes } from '../use-import-mailboxes.ts';

const SHOWN_ERRORS = 200;

/**
 * Bulk create: a CSV of `email,password[,quota]` (quota in MB, empty = Default Quota). "Check
 * only" is a dry run; "Create missing domains" is off by default, and the answer names the
 * domains a run creates (or would create).
 */
export function MailboxImportCard({ onClose }: { onClose: () => void }) {
  const [file, setFile] = useState<File | null>(null);
  const [createDomains, setCreateDomains] = useState(false);
  const [result, setResult] = useState<ImportMailboxesResponse | null>(null);
  const run = useImportMailboxes();
  const go = (dryRun: boolean) => {
    if (!file) return;
    setResult(null);
    run.mutate({ csv: file, dryRun, createDomains }, { onSuccess: setResult });
  };
  return (
    <Card withBorder radius="md" padding="lg" component="section" aria-labelledby="bulk-create-title">
      <Stack gap="sm">
        <Title order={2} size="h4" id="bulk-create-title">
          Bulk Create Mailboxes
        </Title>
        <Text size="sm" c="dimmed">
          A CSV file with the header email,password and an optional quota column (MB; empty = Default Quota).
        </Text>
        <FileInput
          label="CSV file"
          placeholder="Choose a .csv file"
          accept=".csv,text/csv"
          value={file}
          onChange={setFile}
          leftSection={<IconUpload size={16} aria-hidden />}
        />
        <Checkbox
          label="Create missing domains"
          description="Off: rows for a domain that is not a mail domain yet are refused."
          checked={createDomains}
          onChange={(e) => setCreateDomains(e.currentTarget.checked)}
        />
        {run.progress && <JobProgress job={run.progress} onCancel={run.cancel} />}
        {run.isError && (
          <Alert color="red" variant="light" title="Bulk create failed" role="alert">
            {errorMessage(run.error)}
          </Alert>
        )}
        {result && (
          <Alert
            color={result.errors.length ? 'yellow' : 'green'}
            variant="light"
            role="status"
            styles={{ title: { color: 'var(--mantine-color-text)' } }}
            title={result.dryRun ? 'Check only: nothing was created' : 'Bulk create finished'}
          >
            <Text size="sm">
              {result.dryRun ? 'Would create' : 'Created'} {result.imported}, skipped {result.skipped},{' '}
              {result.errors.length} {result.errors.length === 1 ? 'row' : 'rows'} refused.
            </Text>
            {!!result.newDomains?.length && (
              <Text size="sm">
                {result.dryRun ? 'New domains it would create' : 'New domains created'}:{' '}
                {result.newDomains.join(', ')}
              </Text>
            )}
            {result.errors.length > 0 && (
              <List size="sm" mt="xs" aria-label="Refused rows">
                {result.errors.slice(0, SHOWN_ERRORS).map((e) => (
                  <List.Item key={e.row}>
                    Row {e.row}: {e.message}
                  </List.Item>
                ))}
              </List>
            )}
          </Alert>
        )}
        <Group justify="flex-end" gap="xs">
          <Button variant="default" onClick={onClose} disabled={run.isPending}>
            Close
          </Button>
          <Button variant="light" onClick={() => go(true)} disabled={!file} loading={run.isPending}>
            Check only
          </Button>
          <Button onClick={() => go(false)} disabled={!file} loading={run.isPending}>
            Create Mailboxes
          </Button>
        </Group>
      </Stack>
    </Card>
  );
}
