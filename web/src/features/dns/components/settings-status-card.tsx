import type { DnsCheckStatus } from '@mailroom/contract/dns';
import { Alert, Card, Code, Group, List, Stack, Text, Title } from '@mantine/core';
import danger from '../../../components/danger-text.module.css';
import { StatusBadge } from '../../../components/status-badge.tsx';
import { formatRelativeTime } from '../../../lib/format.ts';

const PARTS = ['Server Configuration', 'Security Settings', 'Performance Settings'] as const;

function verdict(ok: boolean | null, warnings: number): { label: string; status: string } {
  if (ok === null) return { label: 'Not rendered yet', status: 'pending' };
  if (!ok) return { label: 'Check failed', status: 'failed' };
  // A name server that is not a public host name passes named-checkconf but cannot be delegated to.
  return warnings > 0
    ? { label: `Check passed, ${warnings} warning${warnings === 1 ? '' : 's'}`, status: 'warning' }
    : { label: 'Check passed', status: 'ok' };
}

function when(iso: string | null): string {
  return iso ? `${formatRelativeTime(iso)} (${new Date(iso).toLocaleString()})` : 'Never';
}

/**
 * Settings Status: whether the rendered named.conf passed named-checkconf, and when it was last
 * applied. The three parts are one file, checked together.
 */
export function SettingsStatusCard({ status }: { status: DnsCheckStatus }) {
  const v = verdict(status.ok, status.warnings.length);
  return (
    <Card withBorder radius="md" padding="md" component="section" aria-labelledby="settings-status-title">
      <Title order={2} size="h4" mb="sm" id="settings-status-title">
        Settings Status
      </Title>
      <Stack gap="xs">
        {PARTS.map((p) => (
          <Group key={p} justify="space-between" wrap="nowrap">
            <Text size="sm">{p}</Text>
            <StatusBadge status={v.status} label={v.label} />
          </Group>
        ))}
      </Stack>
      <Stack gap={4} mt="md">
        <Text size="xs" c="dimmed">
          Last checked: {when(status.checkedAt)}
        </Text>
        <Text size="xs" c="dimmed">
          Last applied: {when(status.appliedAt)}
        </Text>
        {status.reload.attempted && (
          <Text
            size="xs"
            className={status.reload.ok === false ? danger.danger : undefined}
            c={status.reload.ok === false ? undefined : 'dimmed'}
          >
            Name server reload: {status.reload.ok === null ? 'pending' : status.reload.ok ? 'done' : 'failed'}
          </Text>
        )}
        {!status.reload.attempted && status.appliedAt && (
          <Text size="xs" c="dimmed">
            Name server reload: not needed or not possible — named is not running under Mailroom now, so
            nothing was reloaded; it reads the checked files when it starts (see the DNS dashboard for how to
            start it).
          </Text>
        )}
        {status.message && <Text size="sm">{status.message}</Text>}
      </Stack>
      {status.output && (
        <Code block mt="xs" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
          {status.output}
        </Code>
      )}
      {status.reload.output && status.reload.ok === false && (
        <Code block mt="xs" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
          {status.reload.output}
        </Code>
      )}
      {status.warnings.length > 0 && (
        <Alert color="orange" variant="light" mt="sm" p="xs" title="Host names that are not public">
          <Stack gap={4}>
            {status.warnings.map((w) => (
              <Text key={w} size="xs">
                {w}
              </Text>
            ))}
          </Stack>
        </Alert>
      )}
      {status.notes.length > 0 && (
        <List size="sm" mt="sm" spacing={4}>
          {status.notes.map((n) => (
            <List.Item key={n}>{n}</List.Item>
          ))}
        </List>
      )}
    </Card>
  );
}
