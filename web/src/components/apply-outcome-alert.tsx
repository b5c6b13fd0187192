import { applyRoutes } from '@mailroom/contract/apply';
import { Alert, Button, Group, Text } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiCall, errorMessage } from '../api/client.ts';

export const applyKeys = { all: () => ['apply'] as const };

/**
 * Says when a target's saved configuration is not live (a check, the file swap or a reload failed
 * after the change was saved; the last good files are back in place) and offers Retry, which puts
 * the saved state live again. Shows nothing while the target is live.
 */
export function ApplyOutcomeAlert({
  target,
  label,
  refreshKey,
  onRetried,
}: {
  /** The apply target: mail, dns, … */
  target: string;
  /** What the administrator calls it: "mail server", "name server". */
  label: string;
  /** A value that changes after a save, so the outcome is read again. */
  refreshKey?: unknown;
  onRetried?: () => void;
}) {
  const qc = useQueryClient();
  const outcomes = useQuery({
    queryKey: [...applyKeys.all(), refreshKey ?? null],
    queryFn: () => apiCall(applyRoutes.list),
  });
  const retry = useMutation({
    mutationFn: () => apiCall(applyRoutes.retry, { params: { target } }),
    onSettled: async () => {
      await qc.invalidateQueries({ queryKey: applyKeys.all() });
    },
    onSuccess: () => onRetried?.(),
  });
  const outcome = outcomes.data?.find((o) => o.target === target);
  if (!outcome || (outcome.state !== 'failed' && outcome.state !== 'pending')) return null;
  return (
    <Alert
      color="red"
      variant="light"
      icon={<IconAlertTriangle aria-hidden />}
      title={`Saved, but not live on the ${label}`}
      mb="md"
      role="alert"
    >
      <Text size="sm">{outcome.message}</Text>
      {outcome.output && (
        <Text size="xs" ff="monospace" mt="xs" style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}>
          {outcome.output}
        </Text>
      )}
      <Text size="xs" c="dimmed" mt="xs">
        The last good files are in place. Retry puts the saved settings live again.
      </Text>
      {retry.isError && (
        <Text size="sm" c="red.8" mt="xs">
          {errorMessage(retry.error)}
        </Text>
      )}
      <Group gap="xs" mt="sm">
        <Button size="xs" color="red" onClick={() => retry.mutate()} loading={retry.isPending}>
          Retry
        </Button>
      </Group>
    </Alert>
  );
}
