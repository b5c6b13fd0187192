import {
  DNS_LOG_LEVELS,
  SERVER_PROTOCOLS,
  dnsSettingsLabels,
  type DnsSettings,
} from '@mailroom/contract/dns';
import { NumberInput, Switch, TextInput } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { LabelledSelect } from '../../../components/labelled-select.tsx';
import { NUMBER_FIELDS, type SettingsFormValues } from '../settings-form-values.ts';

type Field = keyof DnsSettings;

const SELECTS: Partial<Record<Field, { value: string; label: string }[]>> = {
  serverProtocol: SERVER_PROTOCOLS.map((p) => ({
    value: p,
    label: p === 'both' ? 'UDP and TCP' : p.toUpperCase(),
  })),
  logLevel: DNS_LOG_LEVELS.map((l) => ({ value: l, label: l.charAt(0).toUpperCase() + l.slice(1) })),
};

const OPTIONAL = new Set<Field>(['secondaryNameserver', 'tertiaryNameserver', 'secondaryServers']);

const HELP: Partial<Record<Field, string>> = {
  serverHostname: 'The name server’s own host name',
  defaultTtl: 'Seconds; used when a record gives no TTL',
  maxTtl: 'Seconds; records may not exceed it',
  minTtl: 'Seconds; records may not go below it',
  zoneRefreshInterval: 'Seconds',
  zoneRetryInterval: 'Seconds',
  zoneExpireTime: 'Seconds',
  tlsCertificatePath: 'Read when DNS over TLS or HTTPS is on',
  tlsPrivateKeyPath: 'Read when DNS over TLS or HTTPS is on',
  allowTransfer: 'Only the Secondary Servers listed may copy the zones',
  secondaryServers:
    'IP addresses of your secondary name servers, separated by commas: only they may transfer the zones, and they are notified of every change. Left empty, zone transfers go to no one.',
};

const MAX: Partial<Record<Field, number>> = { serverPort: 65535, maxResponseSize: 65535 };

/** One settings input, chosen by the field's kind: switch, select, number or text. */
export function SettingsField({
  form,
  field,
}: {
  form: UseFormReturnType<SettingsFormValues>;
  field: Field;
}) {
  const label = dnsSettingsLabels[field];
  const value = form.getValues()[field];
  const description = HELP[field];
  if (typeof value === 'boolean') {
    return (
      <Switch
        label={label}
        description={description}
        key={form.key(field)}
        {...form.getInputProps(field, { type: 'checkbox' })}
        mt="xs"
      />
    );
  }
  const options = SELECTS[field];
  if (options) {
    return (
      <LabelledSelect
        label={label}
        data={options}
        allowDeselect={false}
        withAsterisk
        helpText={description}
        key={form.key(field)}
        {...form.getInputProps(field)}
      />
    );
  }
  if ((NUMBER_FIELDS as Field[]).includes(field)) {
    return (
      <NumberInput
        label={label}
        description={description}
        withAsterisk
        min={1}
        max={MAX[field]}
        allowDecimal={false}
        allowNegative={false}
        clampBehavior="none"
        key={form.key(field)}
        {...form.getInputProps(field)}
      />
    );
  }
  return (
    <TextInput
      label={label}
      description={description ?? (OPTIONAL.has(field) ? 'Optional' : undefined)}
      withAsterisk={!OPTIONAL.has(field)}
      key={form.key(field)}
      {...form.getInputProps(field)}
    />
  );
}
