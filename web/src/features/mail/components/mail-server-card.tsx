import { DAEMON_PENDING_LABELS, DAEMON_STATE_LABELS, type DaemonStatus } from '@mailroom/contract/daemons';
import type { MailDashboard } from '@mailroom/contract/mail';
import { Card, Group, Stack, Text, ThemeIcon } from '@mantine/core';
import { IconServer } from '@tabler/icons-react';
import { StatusBadge } from '../../../components/status-badge.tsx';

const DAEMON_LABELS: Record<DaemonStatus['name'], string> = {
  postfix: 'Postfix (SMTP)',
  dovecot: 'Dovecot (IMAP)',
  rspamd: 'rspamd (filter)',
  named: 'BIND (DNS)',
};

/**
 * The "Mail Server" counter: online or offline, then each daemon's real state (of the instance
 * that uses Mailroom's files) and, when it is not running, the plain reason and the fix.
 */
export function MailServerCard({
  dashboard,
}: {
  dashboard: Pick<MailDashboard, 'serverStatus' | 'daemons'>;
}) {
  const online = dashboard.serverStatus === 'online';
  return (
    <Card withBorder padding="md" radius="md" component="section" aria-label="Mail Server">
      <Group justify="space-between" align="flex-start" wrap="nowrap">
        <div>
          <Text size="xs" c="dimmed" tt="uppercase" fw={700}>
            Mail Server
          </Text>
          <Text component="div" fz={28} fw={700} lh={1.2} mt={4}>
            <StatusBadge status={dashboard.serverStatus} size="lg" />
          </Text>
        </div>
        <ThemeIcon color={online ? 'green' : 'red'} variant="light" size={44} radius="md" aria-hidden>
          <IconServer size={24} />
        </ThemeIcon>
      </Group>
      <Stack gap={6} mt="sm" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
        {dashboard.daemons.map((d) => (
          <li key={d.name}>
            <Group gap={4} justify="space-between" wrap="wrap">
              <Text size="sm">{DAEMON_LABELS[d.name]}</Text>
              <StatusBadge
                status={d.pending ? 'pending' : d.state}
                label={d.pending ? DAEMON_PENDING_LABELS[d.pending] : DAEMON_STATE_LABELS[d.state]}
                size="sm"
              />
            </Group>
            {d.state !== 'running' && (
              <Text size="xs" c="dimmed" mt={2} style={{ overflowWrap: 'anywhere' }}>
                {d.detail}
              </Text>
            )}
          </li>
        ))}
      </Stack>
    </Card>
  );
}
