import type { LiveSaveStep, SaveStep } from '@mailroom/contract/mail';
import { Badge, Group, Loader, Stack, Text } from '@mantine/core';

const COLOR: Record<LiveSaveStep['state'], string> = {
  pending: 'gray',
  running: 'blue',
  passed: 'green',
  failed: 'red',
  skipped: 'gray',
  'not-run': 'gray',
};
const LABEL: Record<LiveSaveStep['state'], string> = {
  pending: 'Pending',
  running: 'Running',
  passed: 'Passed',
  failed: 'Failed',
  skipped: 'Skipped',
  'not-run': 'Not run',
};

/**
 * A save's steps, in order, each with its state and time (issue 22 #17): real steps only. While
 * the save runs they come from the events stream (pending and running ones too), then from its
 * answer. Only a step that ran and passed is green.
 */
export function SaveSteps({ steps, label = 'Save steps' }: { steps: LiveSaveStep[]; label?: string }) {
  if (!steps.length) return null;
  return (
    <Stack gap={4} mt="xs" aria-label={label}>
      {steps.map((s) => (
        <Group key={s.name} gap="xs" wrap="nowrap" align="flex-start" data-step={s.name} data-state={s.state}>
          <Badge
            size="sm"
            variant="light"
            color={COLOR[s.state]}
            style={{ flexShrink: 0, minWidth: 72 }}
            leftSection={s.state === 'running' ? <Loader size={8} color="blue" aria-hidden /> : undefined}
          >
            {LABEL[s.state]}
          </Badge>
          <Text size="sm" style={{ minWidth: 0, overflowWrap: 'anywhere' }}>
            {s.name}
            {s.ms !== null && (
              <Text span size="xs" c="dimmed">
                {' '}
                · {s.ms < 1000 ? `${s.ms} ms` : `${(s.ms / 1000).toFixed(1)} s`}
              </Text>
            )}
            {s.state === 'skipped' && s.detail && (
              <Text span size="xs" c="dimmed">
                {' '}
                · {s.detail}
              </Text>
            )}
          </Text>
        </Group>
      ))}
    </Stack>
  );
}

/** A save's steps from its refusal's details, when it carries them. */
export function stepsOf(details: unknown): SaveStep[] {
  const steps = (details as { steps?: unknown } | null)?.steps;
  return Array.isArray(steps) ? (steps as SaveStep[]) : [];
}
