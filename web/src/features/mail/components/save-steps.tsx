import type { SaveStep } from '@mailroom/contract/mail';
import { Badge, Group, Stack, Text } from '@mantine/core';

const COLOR: Record<SaveStep['state'], string> = {
  passed: 'green',
  failed: 'red',
  skipped: 'gray',
  'not-run': 'gray',
};
const LABEL: Record<SaveStep['state'], string> = {
  passed: 'Passed',
  failed: 'Failed',
  skipped: 'Skipped',
  'not-run': 'Not run',
};

/** The steps a save ran, in order, each with its result and time (issue 22 #17): real steps only. */
export function SaveSteps({ steps }: { steps: SaveStep[] }) {
  if (!steps.length) return null;
  return (
    <Stack gap={4} mt="xs" aria-label="Save steps">
      {steps.map((s) => (
        <Group key={s.name} gap="xs" wrap="nowrap" align="flex-start">
          <Badge size="sm" variant="light" color={COLOR[s.state]} style={{ flexShrink: 0, minWidth: 72 }}>
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
