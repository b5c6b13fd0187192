import { BULK_OPERATIONS, type BulkRun } from '@mailroom/contract/bulk';
import { Alert, Badge, Button, Card, Group, Stack, Text, TextInput, Title } from '@mantine/core';
import { useState } from 'react';
import { errorMessage } from '../../../api/client.ts';
import { notify } from '../../../lib/notifications-store.ts';
import { useDiscardBulkPlan } from '../use-discard-bulk-plan.ts';
import { useStartBulkRun } from '../use-start-bulk-run.ts';
import { ItemsTable } from './items-table.tsx';

/** Counts of a plan by what each item would do. */
export function PlanCountBadges({ run }: { run: BulkRun }) {
  const p = run.plan;
  const parts: [string, number, string][] = [
    ['Create', p.create, 'green'],
    ['Update', p.update, 'blue'],
    ['Delete', p.delete, 'red'],
    ['Run', p.run, 'blue'],
    ['Skip: exists', p.skip, 'gray'],
    ['Invalid', p.invalid, 'orange'],
  ];
  return (
    <Group gap="xs" wrap="wrap" aria-label="Plan counts">
      {parts
        .filter(([, n]) => n > 0)
        .map(([label, n, color]) => (
          <Badge key={label} color={color} variant="dot" size="lg">
            {label}: {n.toLocaleString()}
          </Badge>
        ))}
    </Group>
  );
}

/**
 * The plan made by the dry run: what each item would do (nothing has changed yet), and the start.
 * A destructive run shows its count and needs it typed.
 */
export function PlanPanel({
  run,
  onClose,
  onStarted,
}: {
  run: BulkRun;
  onClose: () => void;
  onStarted: () => void;
}) {
  const start = useStartBulkRun();
  const discard = useDiscardBulkPlan();
  const destructive = BULK_OPERATIONS.find((o) => o.id === run.operation)?.destructive ?? false;
  const [typed, setTyped] = useState('');
  const confirmOk = !destructive || typed.trim() === String(run.plan.delete);
  const planned = run.state === 'planned';
  return (
    <Card withBorder padding="md" radius="md" aria-label="Plan">
      <Stack gap="sm">
        <Group justify="space-between" wrap="wrap" gap="xs">
          <Title order={2} size="h4">
            Plan: {run.name}
          </Title>
          <Button variant="subtle" size="xs" onClick={onClose}>
            Close
          </Button>
        </Group>
        <Text size="sm" c="dimmed">
          {run.target.description} · batch size {run.config.batchSize} · continue on error{' '}
          {run.config.continueOnError ? 'on' : 'off'}. The dry run changed nothing.
        </Text>
        <PlanCountBadges run={run} />
        <ItemsTable runId={run.id} mode="plan" />
        {!planned && (
          <Alert color="blue" variant="light">
            This plan is {run.state}.
          </Alert>
        )}
        {planned && destructive && run.plan.delete > 0 && (
          <TextInput
            label={`Type ${run.plan.delete} to delete ${run.plan.delete} item${run.plan.delete === 1 ? '' : 's'}`}
            description={
              run.operation === 'mail.mailbox.delete'
                ? 'This cannot be undone from here (mail folders are moved aside).'
                : 'This cannot be undone from here (each item is in the audit log with what it was).'
            }
            value={typed}
            onChange={(e) => setTyped(e.currentTarget.value)}
            inputMode="numeric"
          />
        )}
        {planned && (
          <Group justify="flex-end" gap="xs">
            <Button
              variant="default"
              loading={discard.isPending}
              onClick={() => discard.mutate(run.id, { onSuccess: onClose })}
            >
              Discard plan
            </Button>
            <Button
              color={destructive ? 'red' : undefined}
              disabled={run.counts.total === 0 || !confirmOk}
              loading={start.isPending}
              onClick={() =>
                start.mutate(
                  { id: run.id, ...(destructive ? { confirm: Number(typed) } : {}) },
                  {
                    onSuccess: () => {
                      notify({
                        type: 'info',
                        title: `${run.name} started`,
                        message: `${run.counts.total} items`,
                      });
                      onStarted();
                    },
                    onError: (e) =>
                      notify({ type: 'error', title: 'Could not start', message: errorMessage(e) }),
                  },
                )
              }
            >
              Start run ({run.counts.total.toLocaleString()} items)
            </Button>
          </Group>
        )}
      </Stack>
    </Card>
  );
}
