import { type MetricsAccess } from '@mailroom/contract/api-monitoring';
import { Button, Group, Stack, Switch, TagsInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconDeviceFloppy } from '@tabler/icons-react';
import { ApiError, errorMessage } from '../../../api/client.ts';
import { notify } from '../../../lib/notifications-store.ts';
import { useSaveMetricsAccess } from './use-save-metrics-access.ts';

export function MetricsAccessForm({ state }: { state: MetricsAccess }) {
  const save = useSaveMetricsAccess();
  const form = useForm<MetricsAccess>({ initialValues: state });
  const submit = async (values: MetricsAccess) => {
    try {
      const next = await save.mutateAsync(values);
      form.setInitialValues(next);
      form.reset();
      notify({
        type: 'success',
        title: '/metrics access saved',
        message: 'Every server process applies it within 5 seconds.',
      });
    } catch (err) {
      if (err instanceof ApiError) form.setErrors(err.fieldErrors);
      notify({ type: 'error', title: 'Failed to save /metrics access', message: errorMessage(err) });
    }
  };
  return (
    <form onSubmit={form.onSubmit(submit)} noValidate>
      <Stack gap="sm">
        <Switch
          label="Protect /metrics (a key with the Metrics area, or an allowed address)"
          {...form.getInputProps('protected', { type: 'checkbox' })}
        />
        <TagsInput label="Addresses allowed without a key" {...form.getInputProps('allowedAddresses')} />
        <Group justify="flex-end">
          <Button
            type="submit"
            loading={save.isPending}
            disabled={!form.isDirty()}
            leftSection={<IconDeviceFloppy size={16} aria-hidden />}
          >
            Save /metrics Access
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
