import {
  ADMINS_GROUP,
  APPLIES_TO_LABELS,
  DOMAIN_ADMINS_GROUP,
  DOMAIN_GROUP_PREFIX,
  MfaPolicyInput,
  POLICY_METHODS,
  type MfaPolicy,
} from '@mailroom/contract/mfa';
import {
  Button,
  Checkbox,
  Group,
  Modal,
  NumberInput,
  Radio,
  Select,
  Stack,
  Switch,
  Textarea,
  TextInput,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { useEffect, useState } from 'react';
import { ApiError } from '../../api/client.ts';
import { zodValidate } from '../../lib/zod-form.ts';
import { useMailDomainOptions } from '../../api/use-domain-options.ts';

type Values = Required<Omit<MfaPolicyInput, 'allowedMethods'>> & { allowedMethods: string[] };

const DEFAULTS: Values = {
  name: '',
  description: '',
  enabled: true,
  requireMfa: true,
  appliesTo: ADMINS_GROUP,
  allowedMethods: ['TOTP', 'Backup Codes', 'Hardware Token'],
  backupCodesEnabled: true,
  backupCodesCount: 10,
  sessionTimeout: 3600,
  trustedDevicesEnabled: false,
  trustedDeviceExpiry: 2592000,
};

function fromPolicy(p: MfaPolicy): Values {
  return {
    name: p.name,
    description: p.description,
    enabled: p.enabled,
    requireMfa: p.requireMfa,
    appliesTo: p.appliesTo,
    allowedMethods: p.allowedMethods,
    backupCodesEnabled: p.backupCodesEnabled,
    backupCodesCount: p.backupCodesCount,
    sessionTimeout: p.sessionTimeout,
    trustedDevicesEnabled: p.trustedDevicesEnabled,
    trustedDeviceExpiry: p.trustedDeviceExpiry,
  };
}

const schemaErrors = zodValidate<Values>(MfaPolicyInput);

/** The contract's messages; "Users of a domain" with no domain picked yet says so at the Domain field. */
function validate(v: Values): Record<string, string> {
  const e = schemaErrors(v);
  if (v.appliesTo === DOMAIN_GROUP_PREFIX) {
    delete e.appliesTo;
    e.appliesToDomain = 'Domain is required';
  }
  return e;
}

type Audience = 'admins' | 'domain-admins' | 'domain';
const groupOf = (appliesTo: string): Audience =>
  appliesTo === ADMINS_GROUP ? 'admins' : appliesTo === DOMAIN_ADMINS_GROUP ? 'domain-admins' : 'domain';

const GROUP_CHOICES: { value: Audience; description: string }[] = [
  { value: 'admins', description: 'Every console administrator, domain administrators included' },
  { value: 'domain-admins', description: 'Administrators limited to their assigned domains' },
  { value: 'domain', description: "The domain's mailbox users and its domain administrators" },
];

/**
 * Add MFA Policy / edit: the spec's policy fields, and who it applies to: all administrators
 * ('admins'), domain administrators ('domain-admins') or the users of one mail domain ('domain:<name>').
 */
export function PolicyModal({
  opened,
  policy,
  onClose,
  onSave,
}: {
  opened: boolean;
  policy: MfaPolicy | null;
  onClose: () => void;
  onSave: (v: MfaPolicyInput) => Promise<void>;
}) {
  const form = useForm<Values>({
    initialValues: DEFAULTS,
    validate,
    validateInputOnChange: true,
  });
  const { setValues, resetDirty, clearErrors } = form;
  useEffect(() => {
    if (opened) {
      const start = policy ? fromPolicy(policy) : DEFAULTS;
      setValues(start);
      resetDirty(start);
      clearErrors();
    }
  }, [opened, policy, setValues, resetDirty, clearErrors]);
  const mailDomains = useMailDomainOptions(opened);
  const v = form.getValues();
  const group = groupOf(v.appliesTo);
  const domain = group === 'domain' ? v.appliesTo.slice(DOMAIN_GROUP_PREFIX.length) : '';
  const domainChoices = [
    ...new Set([...(mailDomains.data ?? []).map((d) => d.domain), ...(domain ? [domain] : [])]),
  ].sort();
  const invalid = Object.keys(validate(v)).length > 0;
  const [busy, setBusy] = useState(false);
  async function save(values: Values) {
    setBusy(true);
    try {
      await onSave({ ...values, allowedMethods: values.allowedMethods as MfaPolicyInput['allowedMethods'] });
      onClose();
    } catch (e) {
      if (e instanceof ApiError)
        form.setErrors({
          ...e.fieldErrors,
          ...(e.fieldErrors.name || e.status !== 409 ? {} : { name: e.message }),
        });
    } finally {
      setBusy(false);
    }
  }
  const setAppliesTo = (value: string) => {
    form.setFieldValue('appliesTo', value);
    form.validateField('appliesTo');
  };
  return (
    <Modal opened={opened} onClose={onClose} title={policy ? 'Edit MFA Policy' : 'Add MFA Policy'} size="lg">
      <form onSubmit={form.onSubmit((values) => void save(values))}>
        <Stack>
          <TextInput label="Policy Name" required key={form.key('name')} {...form.getInputProps('name')} />
          <Textarea
            label="Description"
            key={form.key('description')}
            {...form.getInputProps('description')}
            maxLength={500}
          />
          <Radio.Group
            label="Applies To"
            value={group}
            onChange={(g) =>
              setAppliesTo(
                g === 'domain'
                  ? `${DOMAIN_GROUP_PREFIX}${domain || (domainChoices[0] ?? '')}`
                  : g === 'domain-admins'
                    ? DOMAIN_ADMINS_GROUP
                    : ADMINS_GROUP,
              )
            }
            error={form.errors.appliesTo}
          >
            <Stack gap="xs" mt={6}>
              {GROUP_CHOICES.map((c) => (
                <Radio
                  key={c.value}
                  value={c.value}
                  label={APPLIES_TO_LABELS[c.value]}
                  description={c.description}
                />
              ))}
            </Stack>
          </Radio.Group>
          {group === 'domain' && (
            <Select
              label="Domain"
              placeholder={mailDomains.isPending ? 'Loading mail domains…' : 'Pick a mail domain'}
              data={domainChoices}
              value={domain || null}
              onChange={(d) => setAppliesTo(`${DOMAIN_GROUP_PREFIX}${d ?? ''}`)}
              searchable
              nothingFoundMessage="No mail domain"
              error={form.errors.appliesToDomain}
            />
          )}
          <Group>
            <Switch
              label="Enabled"
              key={form.key('enabled')}
              {...form.getInputProps('enabled', { type: 'checkbox' })}
            />
            <Switch
              label="Require MFA"
              key={form.key('requireMfa')}
              {...form.getInputProps('requireMfa', { type: 'checkbox' })}
            />
          </Group>
          <Checkbox.Group
            label="Methods"
            key={form.key('allowedMethods')}
            {...form.getInputProps('allowedMethods')}
          >
            <Group mt={4}>
              {POLICY_METHODS.map((m) => (
                <Checkbox
                  key={m}
                  value={m}
                  label={m === 'SMS' ? 'SMS (no provider configured)' : m}
                  disabled={m === 'SMS'}
                />
              ))}
            </Group>
          </Checkbox.Group>
          <Group grow align="flex-start">
            <Switch
              label="Backup Codes"
              key={form.key('backupCodesEnabled')}
              {...form.getInputProps('backupCodesEnabled', { type: 'checkbox' })}
              mt="lg"
            />
            <NumberInput
              label="Backup Codes Count"
              min={1}
              max={20}
              key={form.key('backupCodesCount')}
              {...form.getInputProps('backupCodesCount')}
            />
          </Group>
          <NumberInput
            label="Session Timeout (seconds)"
            min={300}
            key={form.key('sessionTimeout')}
            {...form.getInputProps('sessionTimeout')}
          />
          <Group grow align="flex-start">
            <Switch
              label="Trusted Devices"
              key={form.key('trustedDevicesEnabled')}
              {...form.getInputProps('trustedDevicesEnabled', { type: 'checkbox' })}
              mt="lg"
            />
            <NumberInput
              label="Trusted Device Expiry (seconds)"
              min={3600}
              key={form.key('trustedDeviceExpiry')}
              {...form.getInputProps('trustedDeviceExpiry')}
            />
          </Group>
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" disabled={invalid || busy} loading={busy}>
              Save
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
