import { SSL_SETTING_REASONS, SslSettings, sslMessages, sslSettingLabels } from '@mailroom/contract/ssl';
import {
  Alert,
  Button,
  Card,
  Group,
  Loader,
  NumberInput,
  Select,
  SimpleGrid,
  Stack,
  Switch,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconDeviceFloppy, IconRefresh, IconRestore } from '@tabler/icons-react';
import { useEffect, useRef, useState } from 'react';
import { ApiError, errorMessage } from '../../api/client.ts';
import { confirmAction } from '../../components/confirm-action.ts';
import { LoadState } from '../../components/load-state.tsx';
import { AcmeAccountsCard } from './components/acme-accounts-card.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { zodValidate } from '../../lib/zod-form.ts';
import { useSaveSslSettings } from './use-save-ssl-settings.ts';
import { useSslSettings } from './use-ssl-settings.ts';

import {
  type Key,
  type Values,
  SWITCH_LABELS,
  CANNOT_SWITCH_ON,
  SELECTS,
  SECTIONS,
  describe,
  EffectBadge,
  toRequest,
} from './components/ssl-settings-form.tsx';

export default function SslSettingsPage() {
  const settings = useSslSettings();
  const saveSettings = useSaveSslSettings();
  const [saved, setSaved] = useState(false);
  const [saving, setSaving] = useState(false);
  const [saveError, setSaveError] = useState<string | null>(null);
  const [dismissed, setDismissed] = useState(false);
  const version = useRef<number | null>(null);
  const form = useForm<Values>({
    initialValues: {} as Values,
    validate: zodValidate(SslSettings, toRequest),
    validateInputOnChange: true,
  });
  useEffect(() => {
    const d = settings.data;
    if (d && d.version !== version.current) {
      version.current = d.version;
      form.setValues(d.settings);
      form.resetDirty(d.settings);
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps -- `form` changes every render
  }, [settings.data]);

  const save = async (v: Values) => {
    setSaving(true);
    setSaved(false);
    setSaveError(null);
    try {
      await saveSettings.mutateAsync({ settings: toRequest(v), version: version.current ?? 0 });
      setSaved(true);
    } catch (err) {
      if (err instanceof ApiError) {
        const fields = Object.fromEntries(
          Object.entries(err.fieldErrors).map(([k, m]) => [k.replace(/^settings\./, ''), m]),
        );
        form.setErrors(fields);
      }
      setSaveError(errorMessage(err));
    } finally {
      setSaving(false);
    }
  };

  const resetDefaults = async () => {
    if (!settings.data) return;
    if (
      await confirmAction({
        title: 'Reset to Defaults',
        message: 'Reset every SSL setting to its default value?',
        confirmLabel: 'Reset',
      })
    )
      form.setValues(settings.data.defaults);
  };

  const control = (k: Key) => {
    const label = SWITCH_LABELS[k] ?? sslSettingLabels[k as keyof typeof sslSettingLabels] ?? k;
    const value = form.values[k];
    const badge = <EffectBadge k={k} stacked />;
    const desc = describe(k);
    if (typeof value === 'boolean')
      return (
        <Stack key={k} gap={2}>
          <Group gap="xs" wrap="wrap" align="center">
            <Switch
              label={label}
              disabled={CANNOT_SWITCH_ON.has(k) && !value}
              {...form.getInputProps(k, { type: 'checkbox' })}
            />
            <EffectBadge k={k} stacked={false} />
          </Group>
          {SSL_SETTING_REASONS[k] && (
            <Text size="xs" c="dimmed">
              {SSL_SETTING_REASONS[k]}
            </Text>
          )}
        </Stack>
      );
    const select = SELECTS[k];
    if (select)
      return (
        <Stack key={k} gap={2}>
          <Select
            label={label}
            required
            data={[...select]}
            allowDeselect={false}
            description={desc}
            {...form.getInputProps(k)}
          />
          {badge}
        </Stack>
      );
    if (typeof value === 'number')
      return (
        <Stack key={k} gap={2}>
          <NumberInput label={label} required description={desc} {...form.getInputProps(k)} />
          {badge}
        </Stack>
      );
    return (
      <Stack key={k} gap={2}>
        <TextInput
          label={label}
          required={k === 'defaultCertificatePath' || k === 'privateKeyPath'}
          description={SSL_SETTING_REASONS[k]}
          {...form.getInputProps(k)}
        />
        {badge}
      </Stack>
    );
  };

  return (
    <>
      <PageHeader
        title="SSL Settings"
        breadcrumbs={[
          { label: 'Dashboard', to: '/dashboard' },
          { label: 'SSL Management', to: '/ssl' },
          { label: 'SSL Settings' },
        ]}
        subtitle="Configure SSL server settings and security policies"
        actions={
          <Button
            variant="default"
            leftSection={
              settings.isFetching ? <Loader size={14} aria-hidden /> : <IconRefresh size={16} aria-hidden />
            }
            disabled={settings.isFetching}
            onClick={() => {
              version.current = null;
              void settings.refetch();
            }}
          >
            Refresh
          </Button>
        }
      />
      <LoadState
        loading={settings.isPending}
        error={settings.error && !dismissed ? errorMessage(settings.error) : null}
        errorTitle={sslMessages.loadSettings}
        loadingLabel="Loading SSL settings..."
        onRetry={() => {
          setDismissed(false);
          void settings.refetch();
        }}
        onDismiss={() => setDismissed(true)}
      >
        {settings.data && Object.keys(form.values).length > 0 && (
          <form onSubmit={form.onSubmit((v) => void save(v))}>
            <Stack gap="md">
              {saved && (
                <Alert
                  color="green"
                  withCloseButton
                  closeButtonLabel="Dismiss"
                  onClose={() => setSaved(false)}
                  role="status"
                >
                  {sslMessages.saved}
                </Alert>
              )}
              {saveError && (
                <Alert
                  color="red"
                  withCloseButton
                  closeButtonLabel="Dismiss"
                  onClose={() => setSaveError(null)}
                  role="alert"
                  title="The SSL settings were not saved"
                >
                  {saveError}
                </Alert>
              )}
              {SECTIONS.map(([title, keys]) => (
                <Card key={title} withBorder padding="md" radius="md">
                  <Title order={2} size="h4" mb="sm">
                    {title}
                  </Title>
                  <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="md">
                    {keys.map(control)}
                  </SimpleGrid>
                </Card>
              ))}
              <Group justify="flex-end">
                <Button
                  variant="default"
                  leftSection={<IconRestore size={16} aria-hidden />}
                  onClick={() => void resetDefaults()}
                >
                  Reset to Defaults
                </Button>
                <Button
                  type="submit"
                  leftSection={<IconDeviceFloppy size={16} aria-hidden />}
                  disabled={saving || !form.isValid()}
                >
                  {saving ? 'Saving...' : 'Save Settings'}
                </Button>
              </Group>
            </Stack>
          </form>
        )}
      </LoadState>
      <AcmeAccountsCard />
    </>
  );
}
