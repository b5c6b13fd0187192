import type { MailUsage } from '@mailroom/contract/mail';
import { Group, Progress, Stack, Text } from '@mantine/core';
import { formatBytes } from '../../../lib/format.ts';
import { usageColor } from '../mail-units.ts';
import { SectionCard } from './section-card.tsx';

/** 'Mailbox Usage': the top 5 mailboxes by usage percent, as computed by the server. */
export function MailboxUsageCard({ usage }: { usage: MailUsage[] }) {
  return (
    <SectionCard
      title="Mailbox Usage"
      titleId="mailbox-usage-title"
      emptyText={usage.length === 0 ? 'No mailboxes found' : null}
      fill
    >
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
    </SectionCard>
  );
}
