import type { CleanupKind } from '@mailroom/contract/system-live';
import { Button, Checkbox, Group, Loader, Modal, NumberInput, Stack, Text } from '@mantine/core';
import { useEffect, useState } from 'react';
import { errorMessage } from '../../../api/client.ts';
import { confirmAction } from '../../../components/confirm-action.ts';
import { formatBytes } from '../../../lib/format.ts';
import { notify } from '../../../lib/notifications-store.ts';
import { useCleanupPreview } from './use-cleanup-preview.ts';
import { useCleanup } from './use-system-live.ts';

/** The disk cleanup: what each defined target would free, chosen, confirmed, then run. */
export function CleanupModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const [days, setDays] = useState(30);
  const [chosen, setChosen] = useState<CleanupKind[]>([]);
  const preview = useCleanupPreview(days, opened);
  const run = useCleanup();
  useEffect(() => {
    if (opened) setChosen([]);
  }, [opened]);
  const items = preview.data?.items ?? [];
  const selectedBytes = items.filter((i) => chosen.includes(i.kind)).reduce((a, b) => a + b.bytes, 0);

  const onRun = async () => {
    const ok = await confirmAction({
      title: 'Clean up disk',
      message: `Permanently remove ${formatBytes(selectedBytes)} (${chosen.length} target${chosen.length === 1 ? '' : 's'})? This cannot be undone.`,
      confirmLabel: 'Clean up',
      danger: true,
    });
    if (!ok) return;
    try {
      const r = await run.mutateAsync({ kinds: chosen, days });
      notify({
        type: r.errors.length ? 'warning' : 'success',
        title: 'Cleanup finished',
        message: `Removed ${r.removedFiles} item${r.removedFiles === 1 ? '' : 's'}, freed ${formatBytes(r.freedBytes)}.${r.errors.length ? ` ${r.errors.length} could not be removed: ${r.errors[0]}` : ''}`,
      });
      void preview.refetch();
      setChosen([]);
    } catch (err) {
      notify({ type: 'error', title: 'Cleanup failed', message: errorMessage(err) });
    }
  };

  return (
    <Modal opened={opened} onClose={onClose} title="Disk cleanup" centered size="lg">
      <Stack>
        <Text size="sm" c="dimmed">
          Choose what to remove. Sizes are what each would free now.
        </Text>
        <NumberInput
          label="Removed mail older than (days)"
          min={1}
          max={3650}
          value={days}
          onChange={(v) => setDays(typeof v === 'number' && v >= 1 ? v : 30)}
          w={260}
        />
        {preview.isLoading && <Loader size="sm" aria-label="Measuring" />}
        {preview.error && <Text c="red">{errorMessage(preview.error)}</Text>}
        {items.map((i) => (
          <Checkbox
            key={i.kind}
            checked={chosen.includes(i.kind)}
            disabled={i.files === 0}
            onChange={(e) => {
              const on = e.currentTarget.checked;
              setChosen((c) => (on ? [...c, i.kind] : c.filter((k) => k !== i.kind)));
            }}
            label={`${i.label}: ${formatBytes(i.bytes)} in ${i.files} item${i.files === 1 ? '' : 's'}`}
            description={i.path}
          />
        ))}
        {preview.data && (
          <Text size="sm">
            Total that can be freed: <b>{formatBytes(preview.data.totalBytes)}</b>; selected:{' '}
            <b>{formatBytes(selectedBytes)}</b>
          </Text>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button
            color="red"
            disabled={chosen.length === 0}
            loading={run.isPending}
            onClick={() => void onRun()}
          >
            Clean up
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
