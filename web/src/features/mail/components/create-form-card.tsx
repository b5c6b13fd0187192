import { Button, Card, Group, type MantineSpacing, Stack, Title } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import type { ReactNode } from 'react';
import { ApiError, errorMessage } from '../../../api/client.ts';
import { useUnsavedChanges } from '../../../components/use-unsaved-changes.ts';
import { ActionErrorAlert } from './action-error-alert.tsx';

export interface CreateFormCardProps<V> {
  /** The card's heading, 'Add Alias'; `titleId` names the section by it. */
  title: string;
  titleId: string;
  /** The submit button, 'Create Alias'. */
  submitLabel: string;
  /** The alert's title when the server refuses other than at a field. */
  errorTitle: string;
  form: UseFormReturnType<V>;
  /** The create mutation (TanStack Query). */
  create: { isError: boolean; error: unknown; isPending: boolean; reset: () => void };
  /** Sends the form; `close` empties it and closes it (after a success). */
  onSubmit: (values: V, close: () => void) => void;
  onClose: () => void;
  mb?: MantineSpacing;
  children: ReactNode;
}

/**
 * The card of a mail 'Add …' form: heading, the server's refusal above the fields (with Try
 * Again) unless a field shows it, then Cancel and the submit button. Leaving with typed values
 * asks first.
 */
export function CreateFormCard<V>({
  title,
  titleId,
  submitLabel,
  errorTitle,
  form,
  create,
  onSubmit,
  onClose,
  mb,
  children,
}: CreateFormCardProps<V>) {
  useUnsavedChanges(form.isDirty());
  const close = () => {
    form.reset();
    create.reset();
    onClose();
  };
  const submit = form.onSubmit((values) => onSubmit(values, close));
  return (
    <Card withBorder radius="md" padding="lg" mb={mb} component="section" aria-labelledby={titleId}>
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <Title order={2} size="h4" id={titleId}>
            {title}
          </Title>
          {create.isError && !hasFieldErrors(create.error) && (
            <ActionErrorAlert
              title={errorTitle}
              message={errorMessage(create.error)}
              onRetry={() => submit()}
              retrying={create.isPending}
              onDismiss={() => create.reset()}
            />
          )}
          {children}
          <Group justify="flex-end" gap="xs">
            <Button variant="default" onClick={close} disabled={create.isPending}>
              Cancel
            </Button>
            <Button type="submit" loading={create.isPending}>
              {submitLabel}
            </Button>
          </Group>
        </Stack>
      </form>
    </Card>
  );
}

/** One message for one error: a refusal at a field is shown there (no toast, no alert above). */
export function showFieldErrors<V>(form: UseFormReturnType<V>) {
  return (err: unknown) => {
    if (err instanceof ApiError) form.setErrors(err.fieldErrors);
  };
}

/** A refusal the form shows at its field needs no second message above the form. */
function hasFieldErrors(err: unknown): boolean {
  return err instanceof ApiError && Object.keys(err.fieldErrors).length > 0;
}
