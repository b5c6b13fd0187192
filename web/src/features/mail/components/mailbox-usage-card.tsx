import type { MailUsage } from '@mailroom/contract/mail';
import { Card, Group, Progress, Stack, Text, Title } from '@mantine/core';
import { formatBytes } from '../../../lib/format.ts';
import { usageColor } from '../mail-units.ts';

/** 'Mailbox Usage': the top 5 mailboxes by usage percent, as computed by the server. */
export function MailboxUsageCard({ usage }: { usage: MailUsage[] }) {
  return (
    <Card
      withBorder
      radius="md"
      padding="md"
      h="100%"
      component="section"
      aria-labelledby="mailbox-usage-title"
    >
      <Title order={2} size="h4" mb="sm" id="mailbox-usage-title">
        Mailbox Usage
      </Title>
      {usage.length === 0 ? (
        <Text c="dimmed" size="sm">
          No mailboxes found
        </Text>
      ) : (
        <Stack gap="sm">
          {usage.map((u) => {
            const color = usageColor(u.percent);
            return (
              <div key={u.email}>
                <Group justify="space-between" gap="xs" wrap="nowrap">
                  <Text size="sm" fw={500} truncate="end" title={u.email}>
                    {u.email}
                  </Text>
                  <Text
                    size="sm"
                    c={color === 'red' ? 'red.8' : undefined}
                    fw={color === 'red' ? 700 : undefined}
                  >
                    {u.percent}%
                  </Text>
                </Group>
                <Progress
                  value={Math.min(u.percent, 100)}
                  color={color}
                  size="sm"
                  mt={4}
                  aria-label={`${u.email} usage`}
                />
                <Text size="xs" c="dimmed" mt={2}>
                  {formatBytes(u.used)} of {u.quota === 0 ? 'Unlimited' : formatBytes(u.quota)}
                </Text>
              </div>
            );
          })}
        </Stack>
      )}
    </Card>
  );
}
