import {
  BATCH_SIZE_MAX,
  BATCH_SIZE_MIN,
  BulkConfig,
  type BulkOperation,
  bulkLabels,
} from '@mailroom/contract/bulk';
import { Button, Checkbox, Group, Modal, NumberInput, Select, Stack, Text } from '@mantine/core';
import { useForm } from '@mantine/form';
import { errorMessage } from '../../../api/client.ts';
import { notify } from '../../../lib/notifications-store.ts';
import { type NumberField, numberOrUndefined, zodValidate } from '../../../lib/zod-form.ts';
import { useSaveBulkPreference } from '../use-save-bulk-preference.ts';

const TARGET_LABELS: Record<string, string> = {
  all: 'All items',
  selected: 'Selected items',
  filtered: 'Filtered items',
  csv: 'CSV file',
};

interface Values {
  targetItems: BulkConfig['targetItems'];
  batchSize: NumberField;
  continueOnError: boolean;
}

const toConfig = (v: Values) => ({ ...v, batchSize: numberOrUndefined(v.batchSize) });

/** Spec §2.12 Configure Operation: Target Items, Batch Size (1 to 100), Continue on error; saved per administrator. */
export function ConfigureModal({ op, onClose }: { op: BulkOperation; onClose: () => void }) {
  const save = useSaveBulkPreference();
  const form = useForm<Values>({
    mode: 'controlled',
    initialValues: op.config,
    validate: zodValidate<Values>(BulkConfig, toConfig),
    validateInputOnChange: true,
    validateInputOnBlur: true,
  });
  const submit = form.onSubmit((v) => {
    const config = BulkConfig.parse(toConfig(v));
    save.mutate(
      { id: op.id, body: { config } },
      {
        onSuccess: () => {
          notify({ type: 'success', title: 'Configuration saved', message: `${op.name}: saved` });
          onClose();
        },
        onError: (e) =>
          notify({ type: 'error', title: 'Could not save the configuration', message: errorMessage(e) }),
      },
    );
  });
  return (
    <Modal opened onClose={onClose} title="Configure Operation" centered>
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <Text size="sm" fw={500}>
            {op.name}
          </Text>
          <Select
            label={bulkLabels.targetItems}
            data={op.targets.map((t) => ({ value: t, label: TARGET_LABELS[t] ?? t }))}
            allowDeselect={false}
            {...form.getInputProps('targetItems')}
          />
          <NumberInput
            label={bulkLabels.batchSize}
            description="Items applied together: one transaction and one apply per batch"
            min={BATCH_SIZE_MIN}
            max={BATCH_SIZE_MAX}
            allowDecimal={false}
            {...form.getInputProps('batchSize')}
          />
          <Checkbox
            label={bulkLabels.continueOnError}
            description="Off: the first failure stops the run. On: failures are listed and the run goes on, unless 10 fail in a row."
            {...form.getInputProps('continueOnError', { type: 'checkbox' })}
          />
          <Group justify="flex-end" gap="xs">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={save.isPending} disabled={!form.isValid()}>
              Save
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
