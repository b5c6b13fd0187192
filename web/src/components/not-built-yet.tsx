import { Card, Text } from '@mantine/core';
import { PageHeader, type Crumb } from './page-header.tsx';

/** What an area shows until its issue is built: its real header and breadcrumb, and this note. */
export function NotBuiltYet({ title, breadcrumbs }: { title: string; breadcrumbs: Crumb[] }) {
  return (
    <>
      <PageHeader title={title} breadcrumbs={breadcrumbs} />
      <Card withBorder padding="lg" radius="md">
        <Text fw={600}>Not built yet</Text>
        <Text c="dimmed" size="sm" mt={4}>
          This screen arrives with a later issue. Nothing here is simulated in the meantime.
        </Text>
      </Card>
    </>
  );
}
