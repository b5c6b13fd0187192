import type { DkimRecord, MailFilterStatus, MailSettingsResponse } from '@mailroom/contract/mail';
import { Alert, Badge, Card, Code, Group, Loader, Select, Spoiler, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { errorMessage } from '../../../api/client.ts';
import { CopyButton } from '../../../components/copy-button.tsx';
import { formatRelativeTime } from '../../../lib/format.ts';

export interface SettingsStatusPanelProps {
  loaded: MailSettingsResponse;
  dkim: { data: DkimRecord[] | undefined; loading: boolean; error: unknown };
}

// Red text readable on the light and the dark card.
const WARN_TEXT = 'light-dark(var(--mantine-color-red-9), var(--mantine-color-red-4))';

function OnOff({ label, on }: { label: string; on: boolean }) {
  return (
    <Group justify="space-between" gap="xs" wrap="nowrap">
      <Text size="sm">{label}</Text>
      <Badge color={on ? 'teal.9' : 'gray.7'} variant="filled">
        {on ? 'on' : 'off'}
      </Badge>
    </Group>
  );
}

const FILTER_BADGE: Record<MailFilterStatus['state'], { color: string; label: string }> = {
  running: { color: 'teal.9', label: 'running' },
  stopped: { color: 'red.9', label: 'not running' },
  failed: { color: 'red.9', label: 'failed' },
  'not-installed': { color: 'red.9', label: 'not installed' },
  unmanaged: { color: 'gray.7', label: 'not managed' },
  off: { color: 'gray.7', label: 'off' },
};

/** The mail filter (rspamd) and virus scanning, as they really are on the server now. */
function FilterStatus({ filter, enabled }: { filter: MailFilterStatus; enabled: boolean }) {
  const badge = FILTER_BADGE[filter.state];
  const virus = filter.virusScan;
  const wantedButMissing = enabled && !virus.available;
  return (
    <>
      <Group justify="space-between" gap="xs" wrap="nowrap">
        <Text size="sm">Mail filter (rspamd)</Text>
        <Badge color={badge.color} variant="filled">
          {badge.label}
        </Badge>
      </Group>
      <Text size="xs" c={filter.state === 'running' || filter.state === 'off' ? 'dimmed' : WARN_TEXT}>
        {filter.detail}
      </Text>
      <Group justify="space-between" gap="xs" wrap="nowrap">
        <Text size="sm">Virus scanning</Text>
        <Badge color={virus.active ? 'teal.9' : wantedButMissing ? 'red.9' : 'gray.7'} variant="filled">
          {virus.active ? 'on' : virus.available ? 'off' : 'not available'}
        </Badge>
      </Group>
      <Text size="xs" c={wantedButMissing ? WARN_TEXT : 'dimmed'}>
        {virus.detail}
      </Text>
    </>
  );
}

/** Lines of the checkers' output that are warnings (postconf/doveconf print `…: warning: …`). */
export function checkWarnings(output: string): number {
  return output.split('\n').filter((l) => /\bwarning\b|No such file or directory/i.test(l)).length;
}

/** 'Settings Status': what is saved and applied on the server, read back from it. */
export function SettingsStatusPanel({ loaded, dkim }: SettingsStatusPanelProps) {
  const s = loaded.settings;
  const check = loaded.check;
  // "passed" above warnings would mislead (issue 12): say how many the checker printed, and count
  // host names that are not public (MX or autoconfig targets, issue 22) as warnings too.
  const hostWarnings = loaded.hostWarnings;
  const checkerWarnings = check ? checkWarnings(check.output) : 0;
  const warnings = checkerWarnings + hostWarnings.length;
  return (
    <Card withBorder radius="md" padding="lg" component="section" aria-labelledby="settings-status-title">
      <Title order={2} size="h4" mb="sm" id="settings-status-title">
        Settings Status
      </Title>
      <Stack gap="sm">
        <Group justify="space-between" gap="xs">
          <Text size="sm">Version</Text>
          <Text size="sm" fw={600}>
            {loaded.version}
          </Text>
        </Group>
        <Group justify="space-between" gap="xs" wrap="nowrap">
          <Text size="sm">Last applied</Text>
          {loaded.appliedAt ? (
            <Text size="sm" fw={600} title={new Date(loaded.appliedAt).toLocaleString()}>
              <time dateTime={loaded.appliedAt}>{formatRelativeTime(loaded.appliedAt)}</time>
            </Text>
          ) : (
            <Text size="sm" c="dimmed">
              Never
            </Text>
          )}
        </Group>
        <Group justify="space-between" gap="xs" wrap="nowrap">
          <Text size="sm">Configuration check</Text>
          {check === null ? (
            <Badge color="gray.7" variant="filled">
              not run
            </Badge>
          ) : (
            <Badge
              color={!check.ok ? 'red.9' : warnings > 0 ? 'orange.9' : 'teal.9'}
              // White on orange.9 is 4.3:1; black on it reads at 4.9:1 (WCAG AA).
              c={check.ok && warnings > 0 ? 'black' : undefined}
              variant="filled"
              // "passed, 2 warnings" whole, never cut to "passed, 2 warnin…".
              style={{ flexShrink: 0 }}
            >
              {!check.ok
                ? 'failed'
                : warnings > 0
                  ? `passed, ${warnings} warning${warnings === 1 ? '' : 's'}`
                  : 'passed'}
            </Badge>
          )}
        </Group>
        {check && (
          <Text size="xs" c="dimmed">
            {!check.ok
              ? 'postconf and doveconf refused the rendered configuration: the last good files stay live.'
              : checkerWarnings > 0
                ? `postconf and doveconf accepted the rendered configuration, with ${checkerWarnings === 1 ? 'a warning' : 'warnings'} (below). Warnings about missing files or maps usually mean a daemon or a map that was not set up yet on this machine; they do not stop mail.`
                : 'postconf and doveconf accepted the rendered configuration.'}
          </Text>
        )}
        {hostWarnings.length > 0 && (
          <Alert
            color="orange"
            variant="light"
            title="Host names that are not public"
            data-testid="host-warnings"
            p="xs"
          >
            <Stack gap={4}>
              {hostWarnings.map((w) => (
                <Text key={w} size="xs">
                  {w}
                </Text>
              ))}
            </Stack>
          </Alert>
        )}
        {check === null && (
          <Text size="xs" c="dimmed">
            No checker (postconf, doveconf) was available when the settings were last applied.
          </Text>
        )}
        {check && check.output.trim() !== '' && (
          <Spoiler maxHeight={90} showLabel="Show full output" hideLabel="Hide output">
            <Code
              block
              style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}
              aria-label="Configuration check output"
            >
              {check.output}
            </Code>
          </Spoiler>
        )}

        <FilterStatus filter={loaded.filter} enabled={s.enableVirusScan} />

        <Title order={3} size="h5" mt="xs">
          Applied settings
        </Title>
        <OnOff label="TLS" on={s.enableTLS} />
        <OnOff label="Authentication required" on={s.requireAuth} />
        <OnOff label="Plain-text authentication" on={s.allowPlainText} />
        <OnOff label="SPF" on={s.enableSPF} />
        <OnOff label="DKIM" on={s.enableDKIM} />
        <OnOff label="DMARC" on={s.enableDMARC} />

        <Title order={3} size="h5" mt="xs">
          DKIM DNS records
        </Title>
        {!s.enableDKIM ? (
          <Text size="sm" c="dimmed">
            DKIM signing is off.
          </Text>
        ) : dkim.loading ? (
          <Group gap="xs" role="status">
            <Loader size="xs" aria-hidden />
            <Text size="sm">Loading DKIM records…</Text>
          </Group>
        ) : dkim.error ? (
          <Alert color="red" variant="light" role="alert" title="Failed to load DKIM records">
            <Text size="sm">{errorMessage(dkim.error)}</Text>
          </Alert>
        ) : !dkim.data || dkim.data.length === 0 ? (
          <Text size="sm" c="dimmed">
            No DKIM keys yet: one is made for each mail domain, and a domain exists once a mailbox or an alias
            uses it.
          </Text>
        ) : (
          <DkimRecords records={dkim.data} />
        )}
      </Stack>
    </Card>
  );
}

/** Up to this many domains are listed; beyond it a searchable picker shows one at a time. */
export const DKIM_LISTED_DOMAINS = 5;

function DkimRecords({ records }: { records: DkimRecord[] }) {
  const [picked, setPicked] = useState<string | null>(null);
  if (records.length <= DKIM_LISTED_DOMAINS) {
    return (
      <Stack gap="sm">
        {records.map((r) => (
          <DkimEntry key={r.domain} record={r} />
        ))}
      </Stack>
    );
  }
  const shown = records.find((r) => r.domain === picked) ?? records[0];
  return (
    <Stack gap="sm">
      <Select
        label={`Domain (${records.length})`}
        data={records.map((r) => r.domain)}
        value={shown?.domain ?? null}
        onChange={setPicked}
        searchable
        limit={50}
        allowDeselect={false}
      />
      {shown && <DkimEntry record={shown} />}
    </Stack>
  );
}

function DkimEntry({ record }: { record: DkimRecord }) {
  return (
    <Stack gap={4}>
      <Text size="sm" fw={600}>
        {record.domain}
      </Text>
      <Group gap={4} wrap="nowrap" align="center">
        <Text size="xs" c="dimmed" w={40}>
          Name
        </Text>
        <Code style={{ flex: 1, overflowWrap: 'anywhere' }}>{record.name}</Code>
        <CopyButton value={record.name} label={`Copy DKIM record name for ${record.domain}`} />
      </Group>
      <Group gap={4} wrap="nowrap" align="flex-start">
        <Text size="xs" c="dimmed" w={40}>
          TXT
        </Text>
        <Spoiler maxHeight={64} showLabel="Show all" hideLabel="Show less" style={{ flex: 1, minWidth: 0 }}>
          <Code block style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}>
            {record.txt}
          </Code>
        </Spoiler>
        <CopyButton value={record.txt} label={`Copy DKIM TXT value for ${record.domain}`} />
      </Group>
    </Stack>
  );
}
