import { isLocalOnlyName, ZONE_TYPES, zoneLabels } from '@mailroom/contract/dns';
import { NumberInput, SimpleGrid, Text, TextInput } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { LabelledSelect } from '../../../components/labelled-select.tsx';
import { nsInsideZone, withDomain, type ZoneFormValues } from '../zone-form-values.ts';

const TYPE_LABELS: Record<(typeof ZONE_TYPES)[number], string> = {
  primary: 'Primary',
  secondary: 'Secondary',
  stub: 'Stub',
};
const TYPE_OPTIONS = ZONE_TYPES.map((t) => ({ value: t, label: TYPE_LABELS[t] }));

export function zoneTypeLabel(t: (typeof ZONE_TYPES)[number]): string {
  return TYPE_LABELS[t];
}

/** The zone form's fields, shared by create and edit (domain and type are fixed once created). */
export interface ZoneFieldsProps {
  form: UseFormReturnType<ZoneFormValues>;
  mode: 'create' | 'edit';
  /** The DNS settings' primary name server, the default Primary Nameserver of a new zone. */
  nameserver?: string;
}

export function ZoneFields({ form, mode, nameserver = '' }: ZoneFieldsProps) {
  const values = form.getValues();
  const number = (
    field: 'serial' | 'refresh' | 'retry' | 'expire' | 'minimum',
    description = 'In seconds',
  ) => (
    <NumberInput
      label={zoneLabels[field]}
      description={description}
      withAsterisk
      min={1}
      allowDecimal={false}
      allowNegative={false}
      clampBehavior="none"
      key={form.key(field)}
      {...form.getInputProps(field)}
    />
  );
  return (
    <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
      <TextInput
        label={zoneLabels.domain}
        placeholder="example.com"
        withAsterisk
        disabled={mode === 'edit'}
        key={form.key('domain')}
        {...form.getInputProps('domain')}
        onChange={(e) => {
          form.setValues(withDomain(form.getValues(), e.currentTarget.value, nameserver));
          form.validateField('domain');
        }}
      />
      <LabelledSelect
        label={zoneLabels.zoneType}
        data={TYPE_OPTIONS}
        allowDeselect={false}
        withAsterisk
        disabled={mode === 'edit'}
        key={form.key('zoneType')}
        {...form.getInputProps('zoneType')}
      />
      {values.zoneType !== 'primary' && (
        <TextInput
          label={zoneLabels.primaries}
          description="Addresses of the servers this zone is transferred from, separated by commas"
          placeholder="192.0.2.1, 2001:db8::1"
          withAsterisk
          key={form.key('primaries')}
          {...form.getInputProps('primaries')}
        />
      )}
      <TextInput
        label={zoneLabels.primaryNs}
        placeholder="ns1.example.com"
        withAsterisk
        key={form.key('primaryNs')}
        {...form.getInputProps('primaryNs')}
        inputWrapperOrder={['label', 'input', 'description', 'error']}
        description={
          isLocalOnlyName(values.primaryNs) ? (
            <Text span size="xs" c="var(--mantine-color-orange-text)" role="status">
              {values.primaryNs} is not a name other servers can reach: delegate the zone to a fully qualified
              public name (for example ns1.{values.domain || 'example.com'}).
            </Text>
          ) : undefined
        }
      />
      {mode === 'create' && nsInsideZone(values) && (
        <TextInput
          label={zoneLabels.nsAddress}
          description="The name server lies inside this zone, so the zone needs its address"
          placeholder="192.0.2.53"
          withAsterisk
          key={form.key('nsAddress')}
          {...form.getInputProps('nsAddress')}
        />
      )}
      <TextInput
        label={zoneLabels.adminEmail}
        placeholder="admin@example.com"
        withAsterisk
        key={form.key('adminEmail')}
        {...form.getInputProps('adminEmail')}
      />
      {number('serial', 'Raised by the server on every change')}
      {number('refresh')}
      {number('retry')}
      {number('expire')}
      {mode === 'edit' && number('minimum')}
    </SimpleGrid>
  );
}
