import { DNS_RECORD_TYPES, recordLabels, type DnsRecordType } from '@mailroom/contract/dns';
import { NumberInput, SimpleGrid, Textarea, TextInput } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { LabelledSelect } from '../../../components/labelled-select.tsx';
import { hasPriority, isSrv, type RecordFormValues } from '../record-form-values.ts';
import { ZoneSelect } from './zone-select.tsx';

const VALUE_HINTS: Record<DnsRecordType, string> = {
  A: '192.0.2.10',
  AAAA: '2001:db8::10',
  CNAME: 'target.example.com',
  MX: 'mail.example.com',
  TXT: 'v=spf1 mx -all',
  NS: 'ns1.example.com',
  SRV: 'sip.example.com',
  PTR: 'host.example.com',
  CAA: '0 issue "letsencrypt.org"',
};

const NAME_HINTS: Partial<Record<DnsRecordType, string>> = {
  SRV: '_service._proto, e.g. _sip._tcp',
};

/** The record form's fields, shared by create and edit (a record stays in its zone). */
export function RecordFields({
  form,
  mode,
}: {
  form: UseFormReturnType<RecordFormValues>;
  mode: 'create' | 'edit';
}) {
  const { rtype } = form.getValues();
  const zoneProps = form.getInputProps('zone');
  const number = (field: 'ttl' | 'priority' | 'weight' | 'port', max: number, description?: string) => (
    <NumberInput
      label={recordLabels[field]}
      description={description}
      withAsterisk
      min={field === 'ttl' ? 1 : 0}
      max={max}
      allowDecimal={false}
      allowNegative={false}
      clampBehavior="none"
      key={form.key(field)}
      {...form.getInputProps(field)}
    />
  );
  return (
    <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
      <ZoneSelect
        label={recordLabels.zone}
        value={form.getValues().zone}
        onChange={(z) => form.setFieldValue('zone', z)}
        onBlur={() => form.validateField('zone')}
        error={typeof zoneProps.error === 'string' ? zoneProps.error : undefined}
        disabled={mode === 'edit'}
        withAsterisk
      />
      <LabelledSelect
        label={recordLabels.rtype}
        data={[...DNS_RECORD_TYPES]}
        allowDeselect={false}
        withAsterisk
        key={form.key('rtype')}
        {...form.getInputProps('rtype')}
      />
      <TextInput
        label={recordLabels.qname}
        description={NAME_HINTS[rtype] ?? '@ for the zone itself, or a name such as www'}
        placeholder={rtype === 'SRV' ? '_sip._tcp' : '@'}
        withAsterisk
        key={form.key('qname')}
        {...form.getInputProps('qname')}
      />
      {rtype === 'TXT' ? (
        <Textarea
          label={recordLabels.value}
          description="Long text is split into 255-byte strings when the zone is written"
          placeholder={VALUE_HINTS.TXT}
          withAsterisk
          autosize
          minRows={1}
          maxRows={6}
          key={form.key('value')}
          {...form.getInputProps('value')}
        />
      ) : (
        <TextInput
          label={recordLabels.value}
          description={rtype === 'SRV' ? 'Target host' : undefined}
          placeholder={VALUE_HINTS[rtype]}
          withAsterisk
          key={form.key('value')}
          {...form.getInputProps('value')}
        />
      )}
      {number('ttl', 2147483647, 'In seconds')}
      {hasPriority(rtype) && number('priority', 65535, 'Lower is preferred')}
      {isSrv(rtype) && number('weight', 65535, 'Share among equal priorities')}
      {isSrv(rtype) && number('port', 65535, 'Service port')}
    </SimpleGrid>
  );
}
