import {
  PHP_LIMIT_FIELDS,
  type PhpLimits,
  phpLimitsAbove,
  VHOST_FORM_DEFAULTS,
  vhostFormErrors,
  vhostFormToInput,
  vhostToForm,
  webMessages,
  type VhostFormValues,
  type VhostSaved,
  type VirtualHost,
  type WebCapabilities,
} from '@mailroom/contract/web';
import { Alert, Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMediaQuery } from '@mantine/hooks';
import { useState } from 'react';
import { errorMessage } from '../../../api/client.ts';
import { notify } from '../../../lib/notifications-store.ts';
import { servedNames } from '../certificate-choices.ts';
import { apiFieldErrors, formErrorsFrom, saveProblem, savedNotLive } from '../form-errors.ts';
import { useCreateVhost } from '../use-create-vhost.ts';
import { useUpdateVhost } from '../use-update-vhost.ts';
import { useWebSettings } from '../use-web-settings.ts';
import { VirtualHostFields, type WatchedVhostValues } from './virtual-host-fields.tsx';

/** Closed (null), Add Virtual Host, or Edit Virtual Host of a stored host. */
export type VhostModalMode = { kind: 'add' } | { kind: 'edit'; vhost: VirtualHost } | null;

const FIELDS = Object.keys(VHOST_FORM_DEFAULTS);

/**
 * The contract's checks, and the server-wide PHP limits as the ceiling (the server's rule, said
 * before Save). A value the host already had (`kept`) stays allowed, as the server keeps it.
 */
function hostErrors(v: VhostFormValues, ceiling: PhpLimits | null, kept: PhpLimits | null) {
  const errors: Record<string, string> = vhostFormErrors(v);
  if (ceiling)
    for (const o of phpLimitsAbove(v, ceiling))
      if (!kept || kept[o.field] !== v[o.field]) errors[o.field] ??= o.message;
  return errors;
}

function watchedOf(v: VhostFormValues): WatchedVhostValues {
  return {
    sslEnabled: v.sslEnabled,
    sslCertificateId: v.sslCertificateId,
    enableCaching: v.enableCaching,
    enablePhp: v.enablePhp,
    phpVersion: v.phpVersion,
    enableRateLimiting: v.enableRateLimiting,
    enableAccessControl: v.enableAccessControl,
    enableMaintenanceMode: v.enableMaintenanceMode,
    enableBackup: v.enableBackup,
    names: v.sslEnabled ? servedNames(v) : [],
  };
}

function sameWatched(a: WatchedVhostValues, b: WatchedVhostValues): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

export interface VhostFormModalProps {
  mode: VhostModalMode;
  capabilities: WebCapabilities | null;
  onClose: () => void;
}

/** The Add / Edit Virtual Host modal (spec 3 §2.2); a new form each time it opens. */
export function VhostFormModal({ mode, capabilities, onClose }: VhostFormModalProps) {
  const phone = useMediaQuery('(max-width: 36em)');
  // Loaded with the page: the server-wide PHP limits are a new host's values and every host's ceiling.
  const settings = useWebSettings().data;
  const ceiling = settings
    ? (Object.fromEntries(PHP_LIMIT_FIELDS.map((f) => [f, settings[f]])) as PhpLimits)
    : null;
  const title = mode?.kind === 'edit' ? 'Edit Virtual Host' : 'Add Virtual Host';
  return (
    <Modal opened={mode !== null} onClose={onClose} title={title} size="xl" fullScreen={phone}>
      {mode && (
        <VhostForm
          key={mode.kind === 'edit' ? `edit-${mode.vhost.id}` : 'add'}
          mode={mode}
          capabilities={capabilities}
          ceiling={ceiling}
          onClose={onClose}
        />
      )}
    </Modal>
  );
}

function VhostForm({
  mode,
  capabilities,
  ceiling,
  onClose,
}: {
  mode: Exclude<VhostModalMode, null>;
  capabilities: WebCapabilities | null;
  ceiling: PhpLimits | null;
  onClose: () => void;
}) {
  const create = useCreateVhost();
  const update = useUpdateVhost();
  const saving = create.isPending || update.isPending;
  const [problem, setProblem] = useState<{ message: string; output: string | null } | null>(null);
  const [initial] = useState(() =>
    mode.kind === 'edit' ? vhostToForm(mode.vhost) : { ...VHOST_FORM_DEFAULTS, ...ceiling },
  );
  const kept = mode.kind === 'edit' && mode.vhost.enablePhp ? mode.vhost : null;
  const isValidHost = (v: VhostFormValues) => Object.keys(hostErrors(v, ceiling, kept)).length === 0;
  const [watched, setWatched] = useState(() => watchedOf(initial));
  const [valid, setValid] = useState(() => isValidHost(initial));
  // Uncontrolled: a keystroke re-renders none of the ~40 inputs (controlled, each one took about
  // 90 ms on this machine); only the values the sections depend on, and Save's state, are watched.
  const form = useForm<VhostFormValues>({
    mode: 'uncontrolled',
    initialValues: initial,
    // The contract's schema with the server's messages; shown once a field is changed or left.
    validate: (v) => hostErrors(v, ceiling, kept),
    validateInputOnChange: true,
    validateInputOnBlur: true,
    onValuesChange: (v) => {
      const next = watchedOf(v);
      setWatched((prev) => (sameWatched(prev, next) ? prev : next));
      setValid(isValidHost(v));
    },
  });

  const saved = (res: VhostSaved) => {
    notify({ type: 'success', title: res.vhost.domain, message: webMessages.saved });
    onClose();
  };

  const failed = (err: unknown) => {
    if (savedNotLive(err)) {
      // Stored, but Apache could not be reloaded or the probe failed: the last good set serves.
      // The page's apply outcome says why and offers Retry.
      notify({ type: 'warning', title: 'Saved, but not live on the web server', message: errorMessage(err) });
      onClose();
      return;
    }
    // Errors that name a field (Apache's words for custom directives: the line) show at the field;
    // only what belongs to no field shows above the buttons. No toast repeats them.
    const { errors, rest } = formErrorsFrom(apiFieldErrors(err), FIELDS);
    form.setErrors(errors);
    if (Object.keys(errors).length === 0 || rest.length > 0)
      setProblem({
        message: rest.length > 0 ? rest.join(' ') : errorMessage(err),
        output: saveProblem(err).output,
      });
  };

  const submit = (values: VhostFormValues) => {
    setProblem(null);
    const body = vhostFormToInput(values);
    if (mode.kind === 'edit')
      update.mutate({ domain: mode.vhost.domain, body }, { onSuccess: saved, onError: failed });
    else create.mutate(body, { onSuccess: saved, onError: failed });
  };

  return (
    <form onSubmit={form.onSubmit(submit)} noValidate>
      <Stack gap="md">
        <VirtualHostFields form={form} values={watched} capabilities={capabilities} ceiling={ceiling} />
        {problem && (
          <Alert color="red" variant="light" title="Virtual host not saved" role="alert">
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
            Save Virtual Host
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
