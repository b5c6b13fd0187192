import { ZoneCreateRequest, type Zone } from '@mailroom/contract/dns';
import { Button, Group, Modal } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notify } from '../../../lib/notifications-store.ts';
import { reportFailure } from '../report-failure.ts';
import { useUpdateZone } from '../use-update-zone.ts';
import {
  toZoneCreateRequest,
  toZoneUpdateRequest,
  zoneToForm,
  type ZoneFormValues,
} from '../zone-form-values.ts';
import { zodValidate } from '../../../lib/zod-form.ts';
import { ZoneFields } from './zone-fields.tsx';

/** Edits a zone's SOA fields; mounted only while a zone is being edited. */
export function ZoneEditModal({ zone, onClose }: { zone: Zone; onClose: () => void }) {
  const update = useUpdateZone();
  const form = useForm<ZoneFormValues>({
    initialValues: zoneToForm(zone),
    // The same rules as creation: the domain and type are the zone's own and already valid.
    validate: zodValidate(ZoneCreateRequest, toZoneCreateRequest),
    validateInputOnChange: true,
    validateInputOnBlur: true,
  });

  const submit = form.onSubmit(async (values) => {
    try {
      const saved = await update.mutateAsync({
        domain: zone.domain,
        body: toZoneUpdateRequest(values, zone),
      });
      notify({
        type: 'success',
        title: 'Zone updated',
        message: `Zone ${saved.domain} was saved (serial ${saved.soa.serial}).`,
      });
      onClose();
    } catch (err) {
      reportFailure('Failed to update zone', err, form);
    }
  });

  return (
    <Modal
      opened
      onClose={onClose}
      title={`Edit Zone: ${zone.domain}`}
      size="lg"
      centered
      closeButtonProps={{ 'aria-label': 'Close' }}
    >
      <form onSubmit={submit} noValidate>
        <ZoneFields form={form} mode="edit" />
        <Group justify="flex-end" mt="lg">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" loading={update.isPending} disabled={!form.isValid() || !form.isDirty()}>
            Save Changes
          </Button>
        </Group>
      </form>
    </Modal>
  );
}
