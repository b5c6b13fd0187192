import { GENERATION_STEPS } from '@mailroom/contract/ssl';
import type { JobEvent } from '@mailroom/contract/jobs';
import { Alert, Button, Card, Group, List, Loader, Text, ThemeIcon, Title } from '@mantine/core';
import { IconCheck, IconCircleDashed, IconX } from '@tabler/icons-react';

export interface GenerationProgressProps {
  job: JobEvent;
  /** The method's steps (the spec's four for a CA, the real ones for self-signed). */
  steps?: readonly string[];
  onRetry: () => void;
}

/** The four steps, following the generation job live; the CA's words and Retry on failure. */
export function GenerationProgress({ job, steps = GENERATION_STEPS, onRetry }: GenerationProgressProps) {
  const failed = ['failed', 'cancelled', 'interrupted'].includes(job.state);
  const done = job.state === 'succeeded';
  const current = done ? steps.length : Math.max(0, steps.indexOf(job.phase ?? ''));
  return (
    <Card withBorder padding="md" radius="md" data-testid="generation-progress">
      <Title order={2} size="h4" mb="sm">
        {done ? 'Certificate generated' : failed ? 'Certificate generation failed' : 'Generating certificate'}
      </Title>
      <List spacing="xs" center>
        {steps.map((step, i) => {
          const state =
            i < current || done ? 'done' : i === current ? (failed ? 'failed' : 'active') : 'waiting';
          return (
            <List.Item
              key={step}
              icon={
                state === 'done' ? (
                  <ThemeIcon color="green" size={22} radius="xl" aria-hidden>
                    <IconCheck size={14} />
                  </ThemeIcon>
                ) : state === 'failed' ? (
                  <ThemeIcon color="red" size={22} radius="xl" aria-hidden>
                    <IconX size={14} />
                  </ThemeIcon>
                ) : state === 'active' ? (
                  <Loader size={18} aria-hidden />
                ) : (
                  <ThemeIcon color="gray" variant="light" size={22} radius="xl" aria-hidden>
                    <IconCircleDashed size={14} />
                  </ThemeIcon>
                )
              }
            >
              <Text
                size="sm"
                fw={state === 'active' ? 700 : 400}
                c={state === 'waiting' ? 'dimmed' : undefined}
              >
                {step}
              </Text>
            </List.Item>
          );
        })}
      </List>
      {failed && (
        <Alert color="red" mt="md" title="The certificate was not issued" role="alert">
          <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
            {job.message ?? job.state}
          </Text>
          <Group mt="sm">
            <Button size="xs" color="red" onClick={onRetry}>
              Retry
            </Button>
          </Group>
        </Alert>
      )}
      {done && job.message && (
        <Text size="sm" mt="md" c="green.9">
          {job.message}
        </Text>
      )}
    </Card>
  );
}
