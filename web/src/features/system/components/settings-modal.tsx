import { SystemSettingsForm, type SystemSettingsAnswer } from '@mailroom/contract/system-admin';
import { Button, Checkbox, Group, Modal, Select, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useEffect } from 'react';
import { ApiError, errorMessage } from '../../../api/client.ts';
import { notify } from '../../../lib/notifications-store.ts';
import { zodValidate } from '../../../lib/zod-form.ts';
import { useSaveSettingsForm } from '../use-system-admin.ts';

type Values = SystemSettingsAnswer['form'];

export interface SettingsModalProps {
  opened: boolean;
  onClose: () => void;
  saved: SystemSettingsAnswer;
}

/** The spec's System Settings modal (§2.10, rules §5), filled with the saved values. */
export function SettingsModal({ opened, onClose, saved }: SettingsModalProps) {
  const save = useSaveSettingsForm();
  const form = useForm<Values>({
    mode: 'controlled',
    initialValues: saved.form,
    validate: zodValidate<Values>(SystemSettingsForm),
    validateInputOnChange: true,
    validateInputOnBlur: true,
  });
  const timezones = saved.settings.find((s) => s.id === 'timezone')?.options ?? [
    { value: 'UTC', label: 'UTC' },
  ];
  const { setValues, resetDirty } = form;
  useEffect(() => {
    if (opened) {
      setValues(saved.form);
      resetDirty(saved.form);
    }
    // Only when it opens: a refetch while editing must not overwrite what is typed.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [opened]);
  const close = () => {
    form.setValues(saved.form);
    form.clearErrors();
    onClose();
  };
  const submit = form.onSubmit((values) =>
    save.mutate(values, {
      onSuccess: () => {
        notify({
          type: 'success',
          title: 'System settings saved',
          message: values.maintenanceMode ? 'Maintenance mode is on.' : 'Settings saved.',
        });
        onClose();
      },
      onError: (err) => {
        if (err instanceof ApiError && Object.keys(err.fieldErrors).length) form.setErrors(err.fieldErrors);
        else notify({ type: 'error', title: 'Saving failed', message: errorMessage(err) });
      },
    }),
  );
  return (
    <Modal opened={opened} onClose={close} title="System Settings" centered>
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <TextInput label="System Name" withAsterisk {...form.getInputProps('systemName')} />
          <TextInput label="Admin Email" type="email" withAsterisk {...form.getInputProps('adminEmail')} />
          <Select
            label="Timezone"
            withAsterisk
            searchable
            data={
              timezones.some((o) => o.value === form.values.timezone)
                ? timezones
                : [...timezones, { value: form.values.timezone, label: form.values.timezone }]
            }
            allowDeselect={false}
            {...form.getInputProps('timezone')}
          />
          <Checkbox
            label="Enable Maintenance Mode"
            description="While on, every change through the API is refused; reads keep working."
            {...form.getInputProps('maintenanceMode', { type: 'checkbox' })}
          />
          <Group justify="flex-end" mt="sm">
            <Button variant="default" onClick={close}>
              Cancel
            </Button>
            <Button type="submit" disabled={!form.isValid() || save.isPending}>
              {save.isPending ? 'Saving...' : 'Save Settings'}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
