import { Button, Card, Collapse, Group, Title } from '@mantine/core';
import { IconDownload, IconRefresh, IconUpload } from '@tabler/icons-react';
import { useState } from 'react';
import { errorMessage } from '../../../api/client.ts';
import { notify } from '../../../lib/notifications-store.ts';
import { downloadRecords } from '../export-records.ts';
import { RecordImport } from './record-import.tsx';

export interface RecordsBulkActionsProps {
  hasRecords: boolean;
  onRefresh: () => Promise<void>;
  refreshing: boolean;
  /** Import Records is an administrator's (its route answers 403 to a domain administrator). */
  canImport?: boolean;
}

/** Bulk Actions: Export Records (every record, from the server), Import Records, Refresh. */
export function RecordsBulkActions({
  hasRecords,
  onRefresh,
  refreshing,
  canImport = true,
}: RecordsBulkActionsProps) {
  const [exporting, setExporting] = useState(false);
  const [importOpen, setImportOpen] = useState(false);

  const exportAll = async () => {
    setExporting(true);
    try {
      const { count, fileName } = await downloadRecords();
      notify({
        type: 'success',
        title: 'Records exported',
        message: `${count} records written to ${fileName}.`,
      });
    } catch (err) {
      notify({ type: 'error', title: 'Failed to export records', message: errorMessage(err) });
    } finally {
      setExporting(false);
    }
  };

  return (
    <Card withBorder radius="md" padding="md" mb="lg">
      <Title order={2} size="h4" mb="sm">
        Bulk Actions
      </Title>
      <Group gap="xs" wrap="wrap">
        <Button
          variant="light"
          leftSection={<IconDownload size={16} aria-hidden />}
          onClick={() => void exportAll()}
          loading={exporting}
          disabled={!hasRecords}
        >
          Export Records
        </Button>
        {canImport && (
          <Button
            variant={importOpen ? 'filled' : 'light'}
            leftSection={<IconUpload size={16} aria-hidden />}
            onClick={() => setImportOpen((v) => !v)}
            aria-expanded={importOpen}
          >
            Import Records
          </Button>
        )}
        <Button
          variant="default"
          leftSection={<IconRefresh size={16} aria-hidden />}
          onClick={() => void onRefresh()}
          loading={refreshing}
        >
          Refresh
        </Button>
      </Group>
      <Collapse in={canImport && importOpen}>
        <Card withBorder radius="md" padding="md" mt="md">
          <RecordImport />
        </Card>
      </Collapse>
    </Card>
  );
}
