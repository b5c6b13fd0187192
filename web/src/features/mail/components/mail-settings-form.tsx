import { MailSettings, mailSettingsLabels as L, type MailSettingsResponse } from '@mailroom/contract/mail';
import {
  Button,
  Card,
  Group,
  NumberInput,
  SimpleGrid,
  Stack,
  Switch,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconDeviceFloppy, IconRestore } from '@tabler/icons-react';
import { ApiError } from '../../../api/client.ts';
import { confirmAction } from '../../../components/confirm-action.ts';
import danger from '../../../components/danger-text.module.css';
import { useUnsavedChanges } from '../../../components/use-unsaved-changes.ts';
import { notify } from '../../../lib/notifications-store.ts';
import { zodValidate } from '../../../lib/zod-form.ts';
import { MxRecordsField } from './mx-records-field.tsx';
import { toFormValues, type SettingsValues } from './settings-values.ts';

const SWITCHES = [
  'enableSpamFilter',
  'enableVirusScan',
  'enableDKIM',
  'enableSPF',
  'enableDMARC',
  'requireAuth',
  'allowPlainText',
  'enableTLS',
] as const;

const NUMBERS = [
  { name: 'defaultQuota', unit: 'MB' },
  { name: 'maxQuota', unit: 'MB' },
  { name: 'maxMessageSize', unit: 'MB' },
  { name: 'maxRecipients', unit: null },
  { name: 'deliveryTimeout', unit: 'seconds' },
] as const;

export interface MailSettingsFormProps {
  loaded: MailSettingsResponse;
  saving: boolean;
  onSave: (settings: MailSettings, version: number) => Promise<void>;
}

/**
 * The §3 settings form, validated with the contract's schema (§5 messages). Mounted once per loaded
 * version, so a save or a reload starts it afresh from the server's values.
 */
export function MailSettingsForm({ loaded, saving, onSave }: MailSettingsFormProps) {
  const form = useForm<SettingsValues>({
    initialValues: toFormValues(loaded.settings),
    validate: zodValidate<SettingsValues>(MailSettings),
  });
  useUnsavedChanges(form.isDirty());

  const submit = async (values: SettingsValues) => {
    const parsed = MailSettings.parse(values);
    try {
      await onSave(parsed, loaded.version);
    } catch (err) {
      if (err instanceof ApiError) form.setErrors(err.fieldErrors);
    }
  };

  const resetToDefaults = async () => {
    const ok = await confirmAction({
      title: 'Reset to Defaults',
      message: 'Are you sure you want to reset all settings to defaults?',
      confirmLabel: 'Reset',
      danger: true,
    });
    if (!ok) return;
    form.setValues(toFormValues(loaded.defaults));
    form.clearErrors();
    notify({
      type: 'info',
      title: 'Defaults restored',
      message: 'The form now holds the default mail settings. Save to apply them.',
    });
  };

  return (
    <form onSubmit={form.onSubmit((v) => void submit(v))} noValidate>
      <Stack gap="md">
        <Card withBorder radius="md" padding="lg" component="section" aria-labelledby="server-settings-title">
          <Title order={2} size="h4" mb="sm" id="server-settings-title">
            Server
          </Title>
          <Stack gap="sm">
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              <TextInput
                label={L.hostname}
                placeholder="mail.example.com"
                required
                withAsterisk
                {...form.getInputProps('hostname')}
              />
              <TextInput
                label={L.domain}
                placeholder="example.com"
                required
                withAsterisk
                {...form.getInputProps('domain')}
              />
            </SimpleGrid>
            <MxRecordsField form={form} />
          </Stack>
        </Card>

        <Card
          withBorder
          radius="md"
          padding="lg"
          component="section"
          aria-labelledby="security-settings-title"
        >
          <Title order={2} size="h4" mb="sm" id="security-settings-title">
            Security and Filtering
          </Title>
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
            {SWITCHES.map((name) => {
              // Virus scanning is real only with ClamAV and its signatures: say so when absent.
              const note =
                name === 'enableVirusScan' && !loaded.filter.virusScan.available
                  ? loaded.filter.virusScan.detail
                  : null;
              return (
                <Stack key={name} gap={2}>
                  <Switch
                    label={L[name]}
                    aria-describedby={note ? `${name}-note` : undefined}
                    {...form.getInputProps(name, { type: 'checkbox' })}
                  />
                  {note && (
                    <Text id={`${name}-note`} size="xs" className={danger.danger}>
                      {note}
                    </Text>
                  )}
                </Stack>
              );
            })}
          </SimpleGrid>
        </Card>

        <Card withBorder radius="md" padding="lg" component="section" aria-labelledby="limit-settings-title">
          <Title order={2} size="h4" mb="sm" id="limit-settings-title">
            Limits
          </Title>
          <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }}>
            {NUMBERS.map(({ name, unit }) => (
              <NumberInput
                key={name}
                label={unit ? `${L[name]} (${unit})` : L[name]}
                allowDecimal={false}
                allowNegative={false}
                required
                withAsterisk
                {...form.getInputProps(name)}
              />
            ))}
          </SimpleGrid>
        </Card>

        <Group justify="flex-end" gap="xs">
          <Button
            variant="default"
            leftSection={<IconRestore size={16} aria-hidden />}
            onClick={() => void resetToDefaults()}
            disabled={saving}
          >
            Reset to Defaults
          </Button>
          <Button type="submit" leftSection={<IconDeviceFloppy size={16} aria-hidden />} loading={saving}>
            Save Settings
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
