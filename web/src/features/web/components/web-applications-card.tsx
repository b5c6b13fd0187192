import { Card, Text, Title } from '@mantine/core';
import type { ColumnDef } from '@tanstack/react-table';
import { DataTable } from '../../../components/data-table/data-table.tsx';

interface ApplicationRow {
  name: string;
}

const HEADERS = ['Name', 'Domain', 'Type', 'Version', 'Status', 'Uptime', 'Requests', 'Errors', 'Actions'];
const COLUMNS: ColumnDef<ApplicationRow, unknown>[] = HEADERS.map((h) => ({
  id: h.toLowerCase(),
  header: h,
  cell: () => null,
}));
const NONE: ApplicationRow[] = [];

/**
 * The Web Applications table of the dashboard (spec 3 §2.1). Applications are built in the next
 * issue: until then there are none, and the table says so (never sample rows).
 */
export function WebApplicationsCard() {
  return (
    <Card withBorder radius="md" padding="md" component="section" aria-labelledby="web-apps-title">
      <Title order={2} size="h4" mb="sm" id="web-apps-title">
        Web Applications
      </Title>
      <DataTable
        label="Web Applications"
        data={NONE}
        columns={COLUMNS}
        getRowId={(r) => r.name}
        emptyText="No web applications found"
        minWidth={900}
      />
      <Text size="xs" c="dimmed" mt="xs">
        Deployed applications appear here once the Applications area is in place.
      </Text>
    </Card>
  );
}
