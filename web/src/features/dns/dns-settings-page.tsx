import { DNS_SETTINGS_SECTIONS, DnsSettings, type DnsSettingsState } from '@mailroom/contract/dns';
import { Alert, Button, Card, Grid, Group, Loader, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconDeviceFloppy, IconRefresh, IconRestore } from '@tabler/icons-react';
import { useEffect, useRef, useState } from 'react';
import { ApiError, errorMessage } from '../../api/client.ts';
import { LoadState } from '../../components/load-state.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { notify } from '../../lib/notifications-store.ts';
import { SettingsField } from './components/settings-field.tsx';
import { SettingsStatusCard } from './components/settings-status-card.tsx';
import { reportFailure } from './report-failure.ts';
import {
  defaultsKeepingHost,
  settingsToForm,
  toSettingsRequest,
  type SettingsFormValues,
} from './settings-form-values.ts';
import { useDismissableError } from './use-dismissable-error.ts';
import { useDnsSettings } from './use-dns-settings.ts';
import { useDnsStatus } from './use-dns-status.ts';
import { useSaveDnsSettings } from './use-save-dns-settings.ts';
import { zodValidate } from '../../lib/zod-form.ts';
import { ApplyOutcomeAlert } from '../../components/apply-outcome-alert.tsx';
import { useUnsavedChanges } from '../../components/use-unsaved-changes.ts';
import { confirmAction } from '../../components/confirm-action.ts';

export default function DnsSettingsPage() {
  const settings = useDnsSettings();
  const status = useDnsStatus();
  const save = useSaveDnsSettings();
  const failure = useDismissableError(settings.error);
  const [stale, setStale] = useState<string | null>(null);
  const loadedVersion = useRef<number | null>(null);

  const form = useForm<SettingsFormValues>({
    initialValues: {} as SettingsFormValues,
    validate: zodValidate(DnsSettings, (v: SettingsFormValues) => toSettingsRequest(v)),
    validateInputOnChange: true,
    validateInputOnBlur: true,
  });
  useUnsavedChanges(form.isDirty());

  const load = (s: DnsSettingsState) => {
    loadedVersion.current = s.version;
    form.setValues(settingsToForm(s));
    form.resetDirty(settingsToForm(s));
    form.clearErrors();
  };

  // Fill the form on the first load, and when a new version arrives while nothing is being edited;
  // edits in progress are kept, and saving them then answers 409 (shown below).
  useEffect(() => {
    const d = settings.data;
    if (d && d.version !== loadedVersion.current && (loadedVersion.current === null || !form.isDirty()))
      load(d);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- `form` and `load` change every render
  }, [settings.data]);

  const refresh = async () => {
    const [s] = await Promise.all([settings.refetch(), status.refetch()]);
    if (s.data) {
      load(s.data);
      setStale(null);
      notify({
        type: 'info',
        title: 'Settings reloaded',
        message: 'The DNS settings were read again from the server.',
      });
    } else if (s.error) {
      notify({ type: 'error', title: 'Failed to load DNS settings', message: errorMessage(s.error) });
    }
  };

  const resetToDefaults = async () => {
    // The same question as Mail Settings: Reset to Defaults confirms everywhere.
    const ok = await confirmAction({
      title: 'Reset to Defaults',
      message: 'Are you sure you want to reset all settings to defaults?',
      confirmLabel: 'Reset',
      danger: true,
    });
    if (!ok) return;
    form.setValues(defaultsKeepingHost(form.getValues()));
    notify({
      type: 'info',
      title: 'Defaults restored',
      message: 'Save Settings to apply the default DNS settings.',
    });
  };

  const submit = form.onSubmit(async (values) => {
    try {
      const saved = await save.mutateAsync(toSettingsRequest(values, loadedVersion.current ?? undefined));
      load(saved);
      setStale(null);
      notify({
        type: 'success',
        title: 'DNS settings saved',
        message: 'The name server configuration was written and passed its check.',
      });
    } catch (err) {
      if (err instanceof ApiError && err.status === 409) {
        // One message for one error: the alert above the form says it, with its Reload button.
        setStale(err.message);
      } else {
        reportFailure('Failed to save DNS settings', err, form);
      }
    }
  });

  const ready = settings.data !== undefined && loadedVersion.current !== null;

  return (
    <>
      <PageHeader
        title="DNS Settings"
        breadcrumbs={[
          { label: 'Dashboard', to: '/dashboard' },
          { label: 'DNS Management', to: '/dns' },
          { label: 'DNS Settings' },
        ]}
        subtitle="Name server options, written to named.conf and checked before they are applied"
        actions={
          <Button
            variant="default"
            leftSection={<IconRefresh size={16} aria-hidden />}
            onClick={() => void refresh()}
            loading={settings.isFetching}
          >
            Refresh Settings
          </Button>
        }
      />
      {stale && (
        <Alert color="orange" title="Settings changed elsewhere" mb="md" role="alert">
          <Text size="sm">{stale}</Text>
          <Button size="xs" mt="xs" color="orange" onClick={() => void refresh()}>
            Reload Settings
          </Button>
        </Alert>
      )}
      <LoadState
        loading={settings.isPending}
        error={failure.message}
        errorTitle="Failed to load DNS settings"
        loadingLabel="Loading DNS settings..."
        onRetry={() => void settings.refetch()}
        onDismiss={failure.dismiss}
      >
        {ready && (
          <Grid gutter="md">
            <Grid.Col span={{ base: 12, lg: 8 }}>
              <ApplyOutcomeAlert
                target="dns"
                label="name server"
                refreshKey={save.submittedAt}
                onRetried={() => void settings.refetch()}
              />
              <form onSubmit={submit} noValidate aria-label="DNS settings">
                <Stack gap="md">
                  {DNS_SETTINGS_SECTIONS.map((section) => (
                    <Card
                      key={section.title}
                      withBorder
                      radius="md"
                      padding="md"
                      component="section"
                      aria-label={section.title}
                    >
                      <Title order={2} size="h4" mb="sm">
                        {section.title}
                      </Title>
                      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
                        {section.fields.map((f) => (
                          <SettingsField key={f} form={form} field={f} />
                        ))}
                      </SimpleGrid>
                    </Card>
                  ))}
                  <Group justify="flex-end" gap="xs">
                    <Button
                      variant="default"
                      leftSection={<IconRestore size={16} aria-hidden />}
                      onClick={() => void resetToDefaults()}
                      disabled={save.isPending}
                    >
                      Reset to Defaults
                    </Button>
                    <Button
                      type="submit"
                      leftSection={
                        save.isPending ? (
                          <Loader size={14} color="white" aria-hidden />
                        ) : (
                          <IconDeviceFloppy size={16} aria-hidden />
                        )
                      }
                      disabled={save.isPending || !form.isValid()}
                    >
                      {save.isPending ? 'Saving...' : 'Save Settings'}
                    </Button>
                  </Group>
                </Stack>
              </form>
            </Grid.Col>
            <Grid.Col span={{ base: 12, lg: 4 }}>
              {status.data ? (
                <SettingsStatusCard status={status.data} />
              ) : status.error ? (
                <Alert color="red" title="Failed to load the settings status" role="alert">
                  {errorMessage(status.error)}
                </Alert>
              ) : (
                <Loader size="sm" aria-label="Loading settings status" />
              )}
            </Grid.Col>
          </Grid>
        )}
      </LoadState>
    </>
  );
}
