import { WEB_SETTINGS_DEFAULTS, WebServerSettings, webSettingsMessages as M } from '@mailroom/contract/web';
import { Alert, Button, Text } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconCheck, IconRestore } from '@tabler/icons-react';
import { useEffect, useRef, useState } from 'react';
import { errorMessage } from '../../api/client.ts';
import { ApplyOutcomeAlert } from '../../components/apply-outcome-alert.tsx';
import { confirmAction } from '../../components/confirm-action.ts';
import { LoadState } from '../../components/load-state.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { useUnsavedChanges } from '../../components/use-unsaved-changes.ts';
import { notify } from '../../lib/notifications-store.ts';
import { zodValidate } from '../../lib/zod-form.ts';
import { RefreshButton } from './components/refresh-button.tsx';
import { WebSettingsForm, watchedSettings } from './components/web-settings-form.tsx';
import { apiFieldErrors, formErrorsFrom, saveProblem, savedNotLive } from './form-errors.ts';
import { useResetWebSettings } from './use-reset-web-settings.ts';
import { useSaveWebSettings } from './use-save-web-settings.ts';
import { useWebCapabilities } from './use-web-capabilities.ts';
import { useWebSettings } from './use-web-settings.ts';

const BREADCRUMBS = [
  { label: 'Dashboard', to: '/dashboard' },
  { label: 'Web Management', to: '/web' },
  { label: 'Server Configuration' },
];

const FIELDS = Object.keys(WEB_SETTINGS_DEFAULTS);

type Outcome =
  { kind: 'saved' | 'reset'; message: string } | { kind: 'failed'; message: string; output: string | null };

export default function WebSettingsPage() {
  const settings = useWebSettings();
  const capabilities = useWebCapabilities();
  const save = useSaveWebSettings();
  const reset = useResetWebSettings();
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const [dismissed, setDismissed] = useState(false);
  const loaded = useRef<WebServerSettings | null>(null);

  const [watched, setWatched] = useState(() => watchedSettings(WEB_SETTINGS_DEFAULTS));
  const [valid, setValid] = useState(true);
  const [dirty, setDirty] = useState(false);
  const track = (v: WebServerSettings) => {
    const next = watchedSettings(v);
    setWatched((prev) => (JSON.stringify(prev) === JSON.stringify(next) ? prev : next));
    setValid(WebServerSettings.safeParse(v).success);
    setDirty(loaded.current !== null && JSON.stringify(v) !== JSON.stringify(loaded.current));
  };
  // Uncontrolled: typing re-renders none of the ~80 inputs; the switches, the PHP choices,
  // Save's validity and the leave-guard's "unsaved" are watched.
  const form = useForm<WebServerSettings>({
    mode: 'uncontrolled',
    initialValues: WEB_SETTINGS_DEFAULTS,
    validate: zodValidate(WebServerSettings),
    validateInputOnChange: true,
    validateInputOnBlur: true,
    onValuesChange: track,
  });
  useUnsavedChanges(dirty);

  const load = (s: WebServerSettings) => {
    loaded.current = s;
    form.setValues(s);
    form.resetDirty(s);
    form.clearErrors();
    track(s);
  };

  // Fill the form from the server's answer: on first load, and when new settings arrive while
  // nothing is being edited (a save, a reset, Refresh).
  useEffect(() => {
    const d = settings.data;
    if (d && d !== loaded.current && (loaded.current === null || !dirty)) load(d);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- `form` and `load` change every render
  }, [settings.data]);

  const failed = (err: unknown) => {
    if (savedNotLive(err)) {
      // Stored, but not live (reload or probe failed, the last good set serves): the apply
      // outcome above the form says why and offers Retry; the form shows what is stored.
      setOutcome(null);
      void settings.refetch().then((r) => r.data && load(r.data));
      return;
    }
    const { errors, rest } = formErrorsFrom(apiFieldErrors(err), FIELDS);
    form.setErrors(errors);
    // Field errors show at their field only; anything else (Apache's refusal, a network failure) here.
    if (Object.keys(errors).length === 0 || rest.length > 0)
      setOutcome({
        kind: 'failed',
        message: rest.length > 0 ? rest.join(' ') : errorMessage(err),
        output: saveProblem(err).output,
      });
    else setOutcome(null);
  };

  const onSave = (values: WebServerSettings) => {
    setOutcome(null);
    save.mutate(values, {
      onSuccess: (res) => {
        load(res.settings);
        setOutcome({ kind: 'saved', message: res.message });
        notify({ type: 'success', title: 'Server Configuration', message: M.saved });
      },
      onError: (err) => failed(err),
    });
  };

  const onReset = async () => {
    const ok = await confirmAction({
      title: 'Reset to Defaults',
      message: M.resetConfirm,
      confirmLabel: 'Reset',
      danger: true,
    });
    if (!ok) return;
    setOutcome(null);
    reset.mutate(undefined, {
      onSuccess: (res) => {
        load(res.settings);
        setOutcome({ kind: 'reset', message: res.message });
        notify({ type: 'success', title: 'Server Configuration', message: M.reset });
      },
      onError: (err) => failed(err),
    });
  };

  const refresh = async () => {
    setDismissed(false);
    const [s] = await Promise.all([settings.refetch(), capabilities.refetch()]);
    if (s.data) {
      load(s.data);
      setOutcome(null);
    }
  };

  const busy = save.isPending || reset.isPending;

  return (
    <>
      <PageHeader
        title="Server Configuration"
        breadcrumbs={BREADCRUMBS}
        subtitle="Apache's configuration: checked by Apache, reloaded gracefully and probed on every save"
        actions={
          <>
            <RefreshButton loading={settings.isFetching} onClick={() => void refresh()} />
            <Button
              variant="default"
              leftSection={<IconRestore size={16} aria-hidden />}
              onClick={() => void onReset()}
              disabled={busy || !settings.data}
            >
              Reset to Defaults
            </Button>
          </>
        }
      />
      <LoadState
        loading={settings.isPending && !dismissed}
        error={settings.isError && !dismissed ? errorMessage(settings.error) || M.loadFailed : null}
        errorTitle={M.loadFailed}
        loadingLabel="Loading web server settings…"
        onRetry={() => void refresh()}
        onDismiss={() => setDismissed(true)}
      >
        {settings.data && (
          <>
            <ApplyOutcomeAlert
              target="web"
              label="web server"
              refreshKey={`${save.submittedAt}-${reset.submittedAt}`}
              onRetried={() => void settings.refetch()}
            />
            {outcome && outcome.kind !== 'failed' && (
              <Alert
                color="green"
                variant="light"
                icon={<IconCheck aria-hidden />}
                withCloseButton
                closeButtonLabel="Dismiss"
                onClose={() => setOutcome(null)}
                mb="md"
                role="status"
              >
                <Text size="sm" fw={600}>
                  {outcome.kind === 'saved' ? M.saved : M.reset}
                </Text>
                {outcome.message !== M.saved && outcome.message !== M.reset && (
                  <Text size="sm">{outcome.message}</Text>
                )}
                <Text size="sm" c="dimmed">
                  Checked by Apache and live on the web server.
                </Text>
              </Alert>
            )}
            {outcome?.kind === 'failed' && (
              <Alert
                color="red"
                variant="light"
                title="Configuration not saved"
                withCloseButton
                closeButtonLabel="Dismiss"
                onClose={() => setOutcome(null)}
                mb="md"
                role="alert"
              >
                <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                  {outcome.message}
                </Text>
                {outcome.output && (
                  <Text
                    size="xs"
                    ff="monospace"
                    mt="xs"
                    style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}
                  >
                    {outcome.output}
                  </Text>
                )}
              </Alert>
            )}
            <WebSettingsForm
              form={form}
              values={watched}
              valid={valid}
              capabilities={capabilities.data ?? null}
              saving={save.isPending}
              resetting={reset.isPending}
              onSave={onSave}
              onReset={() => void onReset()}
            />
          </>
        )}
      </LoadState>
    </>
  );
}
