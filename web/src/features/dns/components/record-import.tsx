import { dnsMessages, type RecordImportResult } from '@mailroom/contract/dns';
import { Alert, Button, Checkbox, FileInput, Group, Stack, Table, Text } from '@mantine/core';
import { IconFileTypeCsv, IconUpload } from '@tabler/icons-react';
import { useState } from 'react';
import { JobProgress } from '../../../components/job-progress.tsx';
import { notify } from '../../../lib/notifications-store.ts';
import { reportFailure } from '../report-failure.ts';
import { useImportRecords } from '../use-import-records.ts';

/** How many per-row errors are listed; the count says how many there were. */
const SHOWN_ERRORS = 100;

function summary(r: RecordImportResult): string {
  const verb = r.dryRun ? 'would be imported' : 'imported';
  return `${r.imported} record${r.imported === 1 ? '' : 's'} ${verb}, ${r.skipped} skipped, ${r.errors.length} error${r.errors.length === 1 ? '' : 's'}.`;
}

/** Import Records: CSV picker, the chosen file's name, an optional dry run, and per-row results. */
export function RecordImport() {
  const [file, setFile] = useState<File | null>(null);
  const [dryRun, setDryRun] = useState(false);
  const [result, setResult] = useState<RecordImportResult | null>(null);
  const importer = useImportRecords();

  const run = async () => {
    if (!file) return;
    try {
      const r = await importer.mutateAsync({ csv: file, dryRun });
      setResult(r);
      const type = r.errors.length === 0 ? 'success' : r.imported > 0 ? 'warning' : 'error';
      notify({
        type,
        title: r.dryRun ? 'Import checked' : 'Records imported',
        message: `${file.name}: ${summary(r)}`,
      });
    } catch (err) {
      setResult(null);
      reportFailure('Failed to import records', err);
    }
  };

  return (
    <Stack gap="sm">
      <FileInput
        label="CSV file"
        description={dnsMessages.importHint}
        placeholder="Choose a CSV file"
        styles={{ placeholder: { color: 'var(--mantine-color-dimmed)' } }}
        accept=".csv,text/csv"
        leftSection={<IconFileTypeCsv size={16} aria-hidden />}
        value={file}
        onChange={(f) => {
          setFile(f);
          setResult(null);
        }}
        clearable
      />
      {file && (
        <Text size="sm">
          Selected file: <strong>{file.name}</strong>
        </Text>
      )}
      <Group justify="space-between" wrap="wrap">
        <Checkbox
          label="Check only (dry run)"
          checked={dryRun}
          onChange={(e) => setDryRun(e.currentTarget.checked)}
        />
        <Button
          leftSection={<IconUpload size={16} aria-hidden />}
          disabled={!file}
          loading={importer.isPending}
          onClick={() => void run()}
        >
          Import Records
        </Button>
      </Group>
      {importer.progress && <JobProgress job={importer.progress} onCancel={importer.cancel} />}
      {result && (
        <Alert
          color={result.errors.length === 0 ? 'green' : result.imported > 0 ? 'yellow' : 'red'}
          title={result.dryRun ? 'Dry run result' : 'Import result'}
          role="status"
        >
          <Text size="sm">{summary(result)}</Text>
          {result.errors.length > 0 && (
            <Table.ScrollContainer minWidth={360} mt="xs">
              <Table withTableBorder verticalSpacing={4} aria-label="Import errors">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th scope="col" w={80}>
                      Line
                    </Table.Th>
                    <Table.Th scope="col">Error</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {result.errors.slice(0, SHOWN_ERRORS).map((e, i) => (
                    <Table.Tr key={i}>
                      <Table.Td>{e.row}</Table.Td>
                      <Table.Td>{e.message}</Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
              {result.errors.length > SHOWN_ERRORS && (
                <Text size="xs" c="dimmed" mt={4}>
                  The first {SHOWN_ERRORS} of {result.errors.length} errors are shown.
                </Text>
              )}
            </Table.ScrollContainer>
          )}
        </Alert>
      )}
    </Stack>
  );
}
