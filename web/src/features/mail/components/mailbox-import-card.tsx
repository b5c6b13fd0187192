import { Card, Stack, Text, Title } from '@mantine/core';
import { ImportFlow } from '../../../components/import-flow/import-flow.tsx';
import { useImportMailboxes } from '../use-import-mailboxes.ts';

/**
 * Bulk create: a CSV of `email,password[,quota]` (quota in MB, empty = Default Quota) through the
 * shared import flow; "Create missing domains" is off by default, and the result names the domains
 * a run creates (or would create).
 */
export function MailboxImportCard({ onClose }: { onClose: () => void }) {
  const importer = useImportMailboxes();
  return (
    <Card withBorder radius="md" padding="lg" component="section" aria-labelledby="bulk-create-title">
      <Stack gap="sm">
        <Title order={2} size="h4" id="bulk-create-title">
          Bulk Create Mailboxes
        </Title>
        <Text size="sm" c="dimmed">
          Every password is hashed; a file of more than a few dozen rows runs as a job.
        </Text>
        <ImportFlow
          label="Bulk create mailboxes"
          hint="A CSV file with the header email,password and an optional quota column (MB; empty = Default Quota)."
          commitLabel="Create Mailboxes"
          doneTitle="Mailboxes created"
          noun={['mailbox', 'mailboxes']}
          importer={importer}
          createDomainsOption
          skippedHint="Skipped rows had no email address or no password."
          onClose={onClose}
        />
      </Stack>
    </Card>
  );
}
