import { Button, Card, Group, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useEffect } from 'react';
import { notify } from '../../../lib/notifications-store.ts';
import { reportFailure } from '../report-failure.ts';
import { useCreateZone } from '../use-create-zone.ts';
import { useDnsSettings } from '../use-dns-settings.ts';
import {
  emptyZoneForm,
  toZoneCreateRequest,
  validateZoneCreate,
  withDomain,
  type ZoneFormValues,
} from '../zone-form-values.ts';
import { ZoneFields } from './zone-fields.tsx';
import { useUnsavedChanges } from '../../../components/use-unsaved-changes.ts';

/** The 'Add DNS Zone' form; closes and resets on success or cancel. */
export function ZoneCreateForm({ onDone }: { onDone: () => void }) {
  const create = useCreateZone();
  const form = useForm<ZoneFormValues>({
    initialValues: emptyZoneForm(),
    validate: validateZoneCreate,
    validateInputOnChange: true,
    validateInputOnBlur: true,
  });
  useUnsavedChanges(form.isDirty());

  const nameserver = useDnsSettings().data?.primaryNameserver ?? '';
  // The settings may arrive after a domain was typed: fill the name server then, unless typed.
  useEffect(() => {
    if (nameserver) form.setValues(withDomain(form.getValues(), form.getValues().domain, nameserver));
    // eslint-disable-next-line react-hooks/exhaustive-deps -- `form` changes every render
  }, [nameserver]);

  const submit = form.onSubmit(async (values) => {
    try {
      const zone = await create.mutateAsync(toZoneCreateRequest(values));
      notify({ type: 'success', title: 'Zone created', message: `Zone ${zone.domain} was created.` });
      form.reset();
      onDone();
    } catch (err) {
      reportFailure('Failed to create zone', err, form);
    }
  });

  return (
    <Card withBorder radius="md" padding="lg" mb="lg" component="section" aria-labelledby="add-zone-title">
      <Title order={2} size="h4" mb="md" id="add-zone-title">
        Add DNS Zone
      </Title>
      <form onSubmit={submit} noValidate>
        <ZoneFields form={form} mode="create" nameserver={nameserver} />
        <Group justify="flex-end" mt="lg">
          <Button
            variant="default"
            onClick={() => {
              form.reset();
              onDone();
            }}
          >
            Cancel
          </Button>
          <Button type="submit" loading={create.isPending} disabled={!form.isValid()}>
            Create Zone
          </Button>
        </Group>
      </form>
    </Card>
  );
}
