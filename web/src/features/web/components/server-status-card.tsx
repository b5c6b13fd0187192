import { WEB_SERVICE_STATE_LABELS, type WebServiceStatus } from '@mailroom/contract/web';
import { Card, Group, Stack, Text, Title } from '@mantine/core';
import { StatusBadge } from '../../../components/status-badge.tsx';

/**
 * Server Status (spec 3 §2.1) with the real state of Apache, PHP-FPM, the database and SSL/TLS;
 * when one is not running, the server's reason under it.
 */
export function ServerStatusCard({ status }: { status: WebServiceStatus[] }) {
  return (
    <Card withBorder radius="md" padding="md" h="100%" component="section" aria-labelledby="web-status-title">
      <Title order={2} size="h4" mb="sm" id="web-status-title">
        Server Status
      </Title>
      <Stack gap="sm" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
        {status.map((s) => (
          <li key={s.name} aria-label={s.name}>
            <Group justify="space-between" wrap="wrap" gap={4}>
              <Text size="sm" fw={500}>
                {s.name}
              </Text>
              <StatusBadge
                status={s.state === 'unmanaged' ? 'unknown' : s.state}
                label={
                  s.name === 'SSL/TLS' && s.state === 'running'
                    ? 'Enabled'
                    : WEB_SERVICE_STATE_LABELS[s.state]
                }
              />
            </Group>
            {s.detail && (
              <Text size="xs" c="dimmed" mt={2} style={{ overflowWrap: 'anywhere' }}>
                {s.detail}
              </Text>
            )}
          </li>
        ))}
      </Stack>
    </Card>
  );
}
