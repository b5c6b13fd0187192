import type { JobEvent } from '@mailroom/contract/jobs';
import {
  Alert,
  Button,
  Checkbox,
  FileInput,
  Group,
  ScrollArea,
  SimpleGrid,
  Stack,
  Table,
  Text,
} from '@mantine/core';
import { IconFileTypeCsv, IconUpload } from '@tabler/icons-react';
import { useState } from 'react';
import { errorMessage } from '../../api/client.ts';
import { notify } from '../../lib/notifications-store.ts';
import { JobProgress } from '../job-progress.tsx';
import { type ImportNoun, type ImportResult, importSummary, importTone } from './import-result.ts';

/** How many refused rows are listed; the counts above always cover them all. */
export const SHOWN_IMPORT_ERRORS = 200;

/** What a screen's import hook offers (a large file runs as a job: `progress`, `cancel`). */
export interface Importer<R extends ImportResult> {
  mutateAsync: (v: { csv: File; dryRun: boolean; createDomains: boolean }) => Promise<R>;
  isPending: boolean;
  progress: JobEvent | null;
  cancel: () => void;
}

export interface ImportFlowProps<R extends ImportResult> {
  /** Names the panel for screen readers: 'Import records'. */
  label: string;
  /** The CSV's columns, under the file picker. */
  hint: string;
  /** The button that runs it: 'Import Records', 'Create Mailboxes'. */
  commitLabel: string;
  /** Title of the one notification a real import leaves: 'Records imported'. */
  doneTitle: string;
  noun: ImportNoun;
  importer: Importer<R>;
  /** Offers "Create missing domains" (off by default; the dry run names the domains). */
  createDomainsOption?: boolean;
  /** Says what a skipped row is on this screen. */
  skippedHint?: string;
  onClose?: () => void;
}

/**
 * The console's one CSV import: choose a file, check it (dry run) or import it, and read the
 * per-row results; a large file runs as a job with its progress bar and ends in the same results.
 * A failure is said once, here; a finished import leaves one notification.
 */
export function ImportFlow<R extends ImportResult>({
  label,
  hint,
  commitLabel,
  doneTitle,
  noun,
  importer,
  createDomainsOption = false,
  skippedHint,
  onClose,
}: ImportFlowProps<R>) {
  const [file, setFile] = useState<File | null>(null);
  const [dryRun, setDryRun] = useState(false);
  const [createDomains, setCreateDomains] = useState(false);
  const [result, setResult] = useState<R | null>(null);
  const [failure, setFailure] = useState<string | null>(null);

  const run = async () => {
    if (!file) return;
    setResult(null);
    setFailure(null);
    try {
      const r = await importer.mutateAsync({ csv: file, dryRun, createDomains });
      setResult(r);
      if (!r.dryRun)
        notify({ type: importTone(r), title: doneTitle, message: `${file.name}: ${importSummary(r, noun)}` });
    } catch (err) {
      setFailure(errorMessage(err));
    }
  };

  return (
    <Stack gap="sm" role="region" aria-label={label}>
      <FileInput
        label="CSV file"
        description={hint}
        placeholder="Choose a CSV file"
        styles={{ placeholder: { color: 'var(--mantine-color-dimmed)' } }}
        accept=".csv,text/csv"
        leftSection={<IconFileTypeCsv size={16} aria-hidden />}
        value={file}
        onChange={(f) => {
          setFile(f);
          setResult(null);
          setFailure(null);
        }}
        clearable
        clearButtonProps={{ 'aria-label': 'Clear file' }}
      />
      {file && (
        <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
          Selected file: <strong>{file.name}</strong>
        </Text>
      )}
      {createDomainsOption && (
        <Checkbox
          label="Create missing domains"
          description="Off: rows for a domain that is not a mail domain yet are refused."
          checked={createDomains}
          onChange={(e) => setCreateDomains(e.currentTarget.checked)}
        />
      )}
      <Group justify="space-between" wrap="wrap">
        <Checkbox
          label="Check only (dry run)"
          checked={dryRun}
          onChange={(e) => setDryRun(e.currentTarget.checked)}
        />
        <Group gap="xs">
          {onClose && (
            <Button variant="default" onClick={onClose} disabled={importer.isPending}>
              Close
            </Button>
          )}
          <Button
            leftSection={<IconUpload size={16} aria-hidden />}
            disabled={!file}
            loading={importer.isPending}
            onClick={() => void run()}
          >
            {commitLabel}
          </Button>
        </Group>
      </Group>
      {importer.progress && <JobProgress job={importer.progress} onCancel={importer.cancel} />}
      {failure && (
        <Alert color="red" variant="light" title="Import failed" role="alert">
          <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
            {failure}
          </Text>
        </Alert>
      )}
      {result && <ImportResultView result={result} noun={noun} skippedHint={skippedHint} />}
    </Stack>
  );
}

function ImportResultView({
  result,
  noun,
  skippedHint,
}: {
  result: ImportResult;
  noun: ImportNoun;
  skippedHint: string | undefined;
}) {
  const errors = result.errors;
  return (
    <Stack gap="sm" role="status" aria-label="Import result">
      <Text size="sm" fw={600}>
        {result.dryRun ? 'Dry run result: nothing was changed' : 'Import result'}
      </Text>
      <SimpleGrid cols={3}>
        <Count label={result.dryRun ? 'Would import' : 'Imported'} value={result.imported} color="green" />
        <Count label="Skipped" value={result.skipped} color="gray" />
        <Count label="Errors" value={errors.length} color={errors.length ? 'red' : 'gray'} />
      </SimpleGrid>
      <Text size="sm">{importSummary(result, noun)}</Text>
      {result.skipped > 0 && skippedHint && (
        <Text size="sm" c="dimmed">
          {skippedHint}
        </Text>
      )}
      {!!result.newDomains?.length && (
        <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
          {result.dryRun ? 'New domains it would create' : 'New domains created'}:{' '}
          {result.newDomains.join(', ')}
        </Text>
      )}
      {errors.length > 0 && (
        <ScrollArea.Autosize mah={300} type="auto">
          <Table striped withTableBorder verticalSpacing={4} aria-label="Rows not imported">
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col" w={80}>
                  Row
                </Table.Th>
                <Table.Th scope="col">Reason</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {errors.slice(0, SHOWN_IMPORT_ERRORS).map((e, i) => (
                <Table.Tr key={`${e.row}-${i}`}>
                  <Table.Td>{e.row}</Table.Td>
                  <Table.Td style={{ overflowWrap: 'anywhere' }}>{e.message}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
          {errors.length > SHOWN_IMPORT_ERRORS && (
            <Text size="sm" c="dimmed" mt="xs">
              The first {SHOWN_IMPORT_ERRORS} of {errors.length.toLocaleString()} rows not imported are shown.
            </Text>
          )}
        </ScrollArea.Autosize>
      )}
    </Stack>
  );
}

function Count({ label, value, color }: { label: string; value: number; color: string }) {
  return (
    <Stack gap={0} align="center" role="group" aria-label={`${label}: ${value}`}>
      <Text fz={24} fw={700} c={color === 'gray' ? undefined : `${color}.8`}>
        {value.toLocaleString()}
      </Text>
      <Text size="sm" c="dimmed">
        {label}
      </Text>
    </Stack>
  );
}
