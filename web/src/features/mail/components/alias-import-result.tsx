import type { ImportAliasesResponse } from '@mailroom/contract/mail';
import { Alert, Button, Group, Modal, ScrollArea, SimpleGrid, Stack, Table, Text } from '@mantine/core';

/** How many refused rows the dialog lists; the count above always covers them all. */
export const SHOWN_IMPORT_ERRORS = 200;

export interface AliasImportResultProps {
  fileName: string | null;
  result: ImportAliasesResponse | null;
  error: string | null;
  onClose: () => void;
}

/** The per-row outcome of an alias CSV import: imported, skipped, and each refused row with its reason. */
export function AliasImportResult({ fileName, result, error, onClose }: AliasImportResultProps) {
  return (
    <Modal
      opened={result !== null || error !== null}
      onClose={onClose}
      title="Import Aliases"
      size="lg"
      centered
    >
      <Stack gap="md">
        {fileName && (
          <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
            File: {fileName}
          </Text>
        )}
        {error && (
          <Alert color="red" variant="light" title="Import failed" role="alert">
            <Text size="sm">{error}</Text>
          </Alert>
        )}
        {result && (
          <>
            <SimpleGrid cols={3}>
              <Count label="Imported" value={result.imported} color="green" />
              <Count label="Skipped" value={result.skipped} color="gray" />
              <Count
                label="Errors"
                value={result.errors.length}
                color={result.errors.length ? 'red' : 'gray'}
              />
            </SimpleGrid>
            {result.skipped > 0 && (
              <Text size="sm" c="dimmed">
                Skipped rows had no source or no destination.
              </Text>
            )}
            {result.errors.length > 0 && (
              <ScrollArea.Autosize mah={300} type="auto">
                <Table striped withTableBorder aria-label="Rows not imported">
                  <Table.Thead>
                    <Table.Tr>
                      <Table.Th scope="col" w={70}>
                        Row
                      </Table.Th>
                      <Table.Th scope="col">Reason</Table.Th>
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {result.errors.slice(0, SHOWN_IMPORT_ERRORS).map((e) => (
                      <Table.Tr key={e.row}>
                        <Table.Td>{e.row}</Table.Td>
                        <Table.Td style={{ overflowWrap: 'anywhere' }}>{e.message}</Table.Td>
                      </Table.Tr>
                    ))}
                  </Table.Tbody>
                </Table>
                {result.errors.length > SHOWN_IMPORT_ERRORS && (
                  <Text size="sm" c="dimmed" mt="xs">
                    …and {result.errors.length - SHOWN_IMPORT_ERRORS} more rows not imported.
                  </Text>
                )}
              </ScrollArea.Autosize>
            )}
          </>
        )}
        <Group justify="flex-end">
          <Button onClick={onClose}>Close</Button>
        </Group>
      </Stack>
    </Modal>
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
