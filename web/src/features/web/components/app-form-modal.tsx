import {
  APP_FORM_DEFAULTS,
  appFormErrors,
  appFormToInput,
  appMessages,
  appToForm,
  type AppFormValues,
  type AppSaved,
  type WebAppCapabilities,
  type WebApplication,
} from '@mailroom/contract/web';
import { Alert, Button, Group, Loader, Modal, Stack, Text } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMediaQuery } from '@mantine/hooks';
import { useState } from 'react';
import { errorMessage } from '../../../api/client.ts';
import { notify } from '../../../lib/notifications-store.ts';
import { APP_FORM_FIELDS, isValidApp } from '../app-form-sections.ts';
import { apiFieldErrors, formErrorsFrom, saveProblem } from '../form-errors.ts';
import { useApp } from '../use-app.ts';
import { useCreateApp } from '../use-create-app.ts';
import { useUpdateApp } from '../use-update-app.ts';
import { AppFields, watchedAppValues } from './app-fields.tsx';

/** Closed (null), Add Web Application, or Edit Web Application of a stored application. */
export type AppModalMode = { kind: 'add' } | { kind: 'edit'; name: string } | null;

export interface AppFormModalProps {
  mode: AppModalMode;
  capabilities: WebAppCapabilities | null;
  onClose: () => void;
}

/** The Add / Edit Web Application modal (spec 3 §2.3); a new form each time it opens. */
export function AppFormModal({ mode, capabilities, onClose }: AppFormModalProps) {
  const phone = useMediaQuery('(max-width: 36em)');
  const title = mode?.kind === 'edit' ? 'Edit Web Application' : 'Add Web Application';
  return (
    <Modal opened={mode !== null} onClose={onClose} title={title} size="xl" fullScreen={phone}>
      {mode?.kind === 'add' && <AppForm key="add" app={null} capabilities={capabilities} onClose={onClose} />}
      {mode?.kind === 'edit' && (
        <EditLoader
          key={`edit-${mode.name}`}
          name={mode.name}
          capabilities={capabilities}
          onClose={onClose}
        />
      )}
    </Modal>
  );
}

/** Edit reads the application first: the list has the names of its environment variables, not values. */
function EditLoader({
  name,
  capabilities,
  onClose,
}: {
  name: string;
  capabilities: WebAppCapabilities | null;
  onClose: () => void;
}) {
  const app = useApp(name);
  if (app.isError)
    return (
      <Alert color="red" variant="light" title={appMessages.loadFailed} role="alert">
        <Text size="sm">{errorMessage(app.error)}</Text>
        <Group mt="sm" gap="xs">
          <Button size="xs" variant="default" onClick={() => void app.refetch()}>
            Retry
          </Button>
          <Button size="xs" variant="subtle" onClick={onClose}>
            Cancel
          </Button>
        </Group>
      </Alert>
    );
  if (!app.data)
    return (
      <Group justify="center" p="xl">
        <Loader size="sm" aria-label={`Loading ${name}…`} />
      </Group>
    );
  return <AppForm app={app.data} capabilities={capabilities} onClose={onClose} />;
}

function AppForm({
  app,
  capabilities,
  onClose,
}: {
  app: WebApplication | null;
  capabilities: WebAppCapabilities | null;
  onClose: () => void;
}) {
  const create = useCreateApp();
  const update = useUpdateApp();
  const saving = create.isPending || update.isPending;
  const [problem, setProblem] = useState<{ message: string; output: string | null } | null>(null);
  const [initial] = useState<AppFormValues>(() => (app ? appToForm(app) : APP_FORM_DEFAULTS));
  const [watched, setWatched] = useState(() => watchedAppValues(initial));
  const [valid, setValid] = useState(() => isValidApp(initial));
  // Uncontrolled, as the virtual host form: a keystroke re-renders none of the ~55 inputs.
  const form = useForm<AppFormValues>({
    mode: 'uncontrolled',
    initialValues: initial,
    // The contract's schema with the server's messages; shown once a field is changed or left.
    validate: (v) => appFormErrors(v),
    validateInputOnChange: true,
    validateInputOnBlur: true,
    onValuesChange: (v) => {
      const next = watchedAppValues(v);
      setWatched((prev) => (JSON.stringify(prev) === JSON.stringify(next) ? prev : next));
      setValid(isValidApp(v));
    },
  });

  const saved = (res: AppSaved) => {
    notify({ type: 'success', title: res.application.name, message: appMessages.saved });
    onClose();
  };

  const failed = (err: unknown) => {
    // Errors naming a field show at the field; the rest above the buttons. No toast repeats them.
    const { errors, rest } = formErrorsFrom(apiFieldErrors(err), APP_FORM_FIELDS);
    form.setErrors(errors);
    if (Object.keys(errors).length === 0 || rest.length > 0)
      setProblem({
        message: rest.length > 0 ? rest.join(' ') : errorMessage(err),
        output: saveProblem(err).output,
      });
  };

  const submit = (values: AppFormValues) => {
    setProblem(null);
    const body = appFormToInput(values);
    if (app) update.mutate({ name: app.name, body }, { onSuccess: saved, onError: failed });
    else create.mutate(body, { onSuccess: saved, onError: failed });
  };

  return (
    <form onSubmit={form.onSubmit(submit)} noValidate>
      <Stack gap="md">
        <AppFields form={form} values={watched} capabilities={capabilities} editing={app !== null} />
        {problem && (
          <Alert color="red" variant="light" title="Web application not saved" role="alert">
            <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
              {problem.message}
            </Text>
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
          </Alert>
        )}
        <Group justify="flex-end" gap="xs">
          <Button variant="default" onClick={onClose} disabled={saving}>
            Cancel
          </Button>
          <Button type="submit" loading={saving} disabled={!valid}>
            Save Web Application
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
