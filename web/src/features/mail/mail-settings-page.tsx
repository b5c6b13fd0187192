import { mailMessages, type MailSettings, type SaveStep } from '@mailroom/contract/mail';
import { Alert, Button, Grid, Group, Loader, Text } from '@mantine/core';
import { IconCheck } from '@tabler/icons-react';
import { useState } from 'react';
import { ApiError, errorMessage } from '../../api/client.ts';
import { LoadState } from '../../components/load-state.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { notify } from '../../lib/notifications-store.ts';
import { MailSettingsForm } from './components/mail-settings-form.tsx';
import { ApplyOutcomeAlert } from '../../components/apply-outcome-alert.tsx';
import { MailCertificateCard } from './components/mail-certificate-card.tsx';
import { SaveSteps, stepsOf } from './components/save-steps.tsx';
import { SettingsStatusPanel } from './components/settings-status-panel.tsx';
import { useDkimRecords } from './use-dkim-records.ts';
import { useMailSettings } from './use-mail-settings.ts';
import { useMailSaveProgress } from './use-mail-save-progress.ts';
import { useSaveMailSettings } from './use-save-mail-settings.ts';

const BREADCRUMBS = [
  { label: 'Dashboard', to: '/dashboard' },
  { label: 'Mail Management', to: '/mail' },
  { label: 'Mail Settings' },
];

type SaveProblem = {
  kind: 'stale' | 'check' | 'other';
  message: string;
  output: string | null;
  steps?: SaveStep[];
};

function problemOf(err: unknown): SaveProblem {
  if (err instanceof ApiError && err.status === 409)
    return { kind: 'stale', message: err.message, output: null };
  if (err instanceof ApiError && err.status === 422) {
    const d = err.details as { output?: unknown } | null;
    return {
      kind: 'check',
      message: err.message,
      output: d && typeof d.output === 'string' ? d.output : null,
      steps: stepsOf(err.details),
    };
  }
  if (err instanceof ApiError && err.status === 502)
    return { kind: 'other', message: err.message, output: null, steps: stepsOf(err.details) };
  return { kind: 'other', message: errorMessage(err), output: null };
}

export default function MailSettingsPage() {
  const settings = useMailSettings();
  const dkim = useDkimRecords();
  const save = useSaveMailSettings();
  const progress = useMailSaveProgress();
  const [saved, setSaved] = useState(false);
  const [problem, setProblem] = useState<SaveProblem | null>(null);
  const [errorDismissed, setErrorDismissed] = useState(false);

  const onSave = async (values: MailSettings, version: number) => {
    setSaved(false);
    setProblem(null);
    try {
      // The steps come on the events stream while the save runs, under this id.
      await save.mutateAsync({ settings: values, version, saveId: progress.begin() });
      setSaved(true);
      notify({ type: 'success', title: 'Mail settings', message: mailMessages.settingsSaved });
    } catch (err) {
      const p = problemOf(err);
      setProblem(p);
      notify({ type: 'error', title: 'Failed to save mail settings', message: p.message });
      throw err;
    }
  };

  const reload = async () => {
    const res = await settings.refetch();
    if (res.isSuccess) {
      setProblem(null);
      notify({
        type: 'info',
        title: 'Mail settings reloaded',
        message: `Now showing version ${res.data.version} from the server.`,
      });
    }
  };

  return (
    <>
      <PageHeader
        title="Mail Settings"
        breadcrumbs={BREADCRUMBS}
        subtitle="Applied to Postfix and Dovecot on save"
      />
      <LoadState
        loading={settings.isPending && !errorDismissed}
        error={settings.isError && !errorDismissed ? errorMessage(settings.error) : null}
        errorTitle="Failed to load mail settings"
        loadingLabel="Loading mail settings…"
        onRetry={() => {
          setErrorDismissed(false);
          void settings.refetch();
        }}
        onDismiss={() => setErrorDismissed(true)}
      >
        {settings.data && (
          <Grid gutter="md">
            <Grid.Col span={{ base: 12, lg: 8 }}>
              <ApplyOutcomeAlert
                target="mail"
                label="mail server"
                refreshKey={save.submittedAt}
                onRetried={() => void settings.refetch()}
              />
              {save.isPending && (
                <Alert
                  color="blue"
                  variant="light"
                  icon={<Loader size="xs" aria-hidden />}
                  title="Saving mail settings"
                  mb="md"
                  role="status"
                >
                  <Text size="sm">
                    The new configuration is checked with the mail server's own tools before it goes live.
                  </Text>
                  <SaveSteps steps={progress.steps} label="Save steps so far" />
                </Alert>
              )}
              {saved && (
                <Alert
                  color="green"
                  variant="light"
                  icon={<IconCheck aria-hidden />}
                  withCloseButton
                  closeButtonLabel="Dismiss"
                  onClose={() => setSaved(false)}
                  mb="md"
                  role="status"
                >
                  {mailMessages.settingsSaved}
                  <SaveSteps steps={save.data?.steps ?? []} />
                </Alert>
              )}
              {problem && (
                <Alert
                  color={problem.kind === 'stale' ? 'orange' : 'red'}
                  variant="light"
                  title={
                    problem.kind === 'stale'
                      ? 'Settings changed elsewhere'
                      : problem.kind === 'check'
                        ? 'Configuration check failed'
                        : 'Failed to save mail settings'
                  }
                  mb="md"
                  role="alert"
                >
                  <Text size="sm">{problem.message}</Text>
                  <SaveSteps steps={problem.steps ?? []} />
                  {problem.output && (
                    <Text
                      size="xs"
                      ff="monospace"
                      mt="xs"
                      style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}
                    >
                      {problem.output}
                    </Text>
                  )}
                  <Group gap="xs" mt="sm">
                    {problem.kind === 'stale' && (
                      <Button
                        size="xs"
                        color="orange"
                        onClick={() => void reload()}
                        loading={settings.isFetching}
                      >
                        Reload Settings
                      </Button>
                    )}
                    <Button size="xs" variant="default" onClick={() => setProblem(null)}>
                      Dismiss
                    </Button>
                  </Group>
                </Alert>
              )}
              <MailSettingsForm
                key={settings.data.version}
                loaded={settings.data}
                saving={save.isPending}
                onSave={onSave}
              />
              <MailCertificateCard />
            </Grid.Col>
            <Grid.Col span={{ base: 12, lg: 4 }}>
              <SettingsStatusPanel
                loaded={settings.data}
                dkim={{ data: dkim.data, loading: dkim.isPending, error: dkim.error }}
              />
            </Grid.Col>
          </Grid>
        )}
      </LoadState>
    </>
  );
}
