import { RecordAddRequest, type DnsRecord } from '@mailroom/contract/dns';
import { Button, Group } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notify } from '../../../lib/notifications-store.ts';
import {
  displayName,
  emptyRecordForm,
  recordToForm,
  toRecordAddRequest,
  toRecordInput,
  type RecordFormValues,
} from '../record-form-values.ts';
import { reportFailure } from '../report-failure.ts';
import { useCreateRecord } from '../use-create-record.ts';
import { useUpdateRecord } from '../use-update-record.ts';
import { zodValidate } from '../../../lib/zod-form.ts';
import { RecordFields } from './record-fields.tsx';
import { useUnsavedChanges } from '../../../components/use-unsaved-changes.ts';

export interface RecordFormProps {
  /** The record being edited; absent for a new one. */
  record?: DnsRecord;
  /** The zone a new record starts in (the zone filter, when one is chosen). */
  defaultZone?: string;
  onDone: () => void;
}

/** Create or edit one record; validated by the contract's per-type rules before it is sent. */
export function RecordForm({ record, defaultZone = '', onDone }: RecordFormProps) {
  const create = useCreateRecord();
  const update = useUpdateRecord();
  const form = useForm<RecordFormValues>({
    initialValues: record ? recordToForm(record) : emptyRecordForm(defaultZone),
    validate: zodValidate(RecordAddRequest, toRecordAddRequest),
    validateInputOnChange: true,
    validateInputOnBlur: true,
  });
  useUnsavedChanges(form.isDirty());

  const submit = form.onSubmit(async (values) => {
    try {
      const saved = record
        ? await update.mutateAsync({ record, body: toRecordInput(values) })
        : await create.mutateAsync(toRecordAddRequest(values));
      const what = `${saved.rtype} ${displayName(saved.qname)} in ${saved.zone}`;
      notify({
        type: 'success',
        title: record ? 'Record updated' : 'Record added',
        message: `${what} was saved.`,
      });
      form.reset();
      onDone();
    } catch (err) {
      reportFailure(record ? 'Failed to update record' : 'Failed to add record', err, form);
    }
  });

  return (
    <form onSubmit={submit} noValidate>
      <RecordFields form={form} mode={record ? 'edit' : 'create'} />
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
        <Button
          type="submit"
          loading={create.isPending || update.isPending}
          disabled={!form.isValid() || (record !== undefined && !form.isDirty())}
        >
          {record ? 'Save Changes' : 'Add Record'}
        </Button>
      </Group>
    </form>
  );
}
