import { mailRoutes } from '@mailroom/contract/mail';
import {
  ADMINS_GROUP,
  APPLIES_TO_LABELS,
  APPLIES_TO_RE,
  DOMAIN_ADMINS_GROUP,
  DOMAIN_GROUP_PREFIX,
  POLICY_METHODS,
  type MfaPolicy,
  type MfaPolicyInput,
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
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { ApiError, apiCall } from '../../api/client.ts';

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
  return { ...p };
}

function check(v: Values): Record<string, string> {
  const e: Record<string, string> = {};
  if (!v.name.trim()) e.name = 'Policy Name is required';
  if (v.allowedMethods.length === 0) e.allowedMethods = 'Methods must be at least 1';
  if (v.appliesTo === DOMAIN_GROUP_PREFIX) e.appliesToDomain = 'Domain is required';
  else if (!APPLIES_TO_RE.test(v.appliesTo.trim().toLowerCase()))
    e.appliesTo = 'Applies To format is invalid';
  if (v.backupCodesCount < 1) e.backupCodesCount = 'Backup Codes must be at least 1';
  if (v.backupCodesCount > 20) e.backupCodesCount = 'Backup Codes must be at most 20';
  if (v.sessionTimeout < 300) e.sessionTimeout = 'Session Timeout must be at least 300';
  if (v.trustedDeviceExpiry < 3600) e.trustedDeviceExpiry = 'Trusted Device Expiry must be at least 3600';
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
  const [v, setV] = useState<Values>(DEFAULTS);
  const [touched, setTouched] = useState<Record<string, boolean>>({});
  const [serverErrors, setServerErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    if (opened) {
      setV(policy ? fromPolicy(policy) : DEFAULTS);
      setTouched({});
      setServerErrors({});
    }
  }, [opened, policy]);
  const mailDomains = useQuery({
    queryKey: ['mail', 'domains', 'options'],
    queryFn: () => apiCall(mailRoutes.listDomains),
    enabled: opened,
  });
  const group = groupOf(v.appliesTo);
  const domain = group === 'domain' ? v.appliesTo.slice(DOMAIN_GROUP_PREFIX.length) : '';
  const domainChoices = [
    ...new Set([...(mailDomains.data ?? []).map((d) => d.domain), ...(domain ? [domain] : [])]),
  ].sort();
  const errors = check(v);
  const err = (k: string) => (touched[k] ? errors[k] : undefined) ?? serverErrors[k];
  const set = <K extends keyof Values>(k: K, val: Values[K]) => {
    setV((o) => ({ ...o, [k]: val }));
    setTouched((t) => ({ ...t, [k]: true }));
  };
  async function save() {
    setBusy(true);
    try {
      await onSave({ ...v, allowedMethods: v.allowedMethods as MfaPolicyInput['allowedMethods'] });
      onClose();
    } catch (e) {
      if (e instanceof ApiError)
        setServerErrors({
          ...e.fieldErrors,
          name: e.fieldErrors.name ?? (e.status === 409 ? e.message : ''),
        });
    } finally {
      setBusy(false);
    }
  }
  return (
    <Modal opened={opened} onClose={onClose} title={policy ? 'Edit MFA Policy' : 'Add MFA Policy'} size="lg">
      <Stack>
        <TextInput
          label="Policy Name"
          required
          value={v.name}
          onChange={(e) => set('name', e.currentTarget.value)}
          error={err('name')}
        />
        <Textarea
          label="Description"
          value={v.description}
          onChange={(e) => set('description', e.currentTarget.value)}
          maxLength={500}
        />
        <Radio.Group
          label="Applies To"
          value={group}
          onChange={(g) =>
            set(
              'appliesTo',
              g === 'domain'
                ? `${DOMAIN_GROUP_PREFIX}${domain || (domainChoices[0] ?? '')}`
                : g === 'domain-admins'
                  ? DOMAIN_ADMINS_GROUP
                  : ADMINS_GROUP,
            )
          }
          error={err('appliesTo')}
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
            onChange={(d) => set('appliesTo', `${DOMAIN_GROUP_PREFIX}${d ?? ''}`)}
            searchable
            nothingFoundMessage="No mail domain"
            error={touched.appliesTo ? errors.appliesToDomain : undefined}
          />
        )}
        <Group>
          <Switch
            label="Enabled"
            checked={v.enabled}
            onChange={(e) => set('enabled', e.currentTarget.checked)}
          />
          <Switch
            label="Require MFA"
            checked={v.requireMfa}
            onChange={(e) => set('requireMfa', e.currentTarget.checked)}
          />
        </Group>
        <Checkbox.Group
          label="Methods"
          value={v.allowedMethods}
          onChange={(m) => set('allowedMethods', m)}
          error={err('allowedMethods')}
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
            checked={v.backupCodesEnabled}
            onChange={(e) => set('backupCodesEnabled', e.currentTarget.checked)}
            mt="lg"
          />
          <NumberInput
            label="Backup Codes Count"
            min={1}
            max={20}
            value={v.backupCodesCount}
            onChange={(n) => set('backupCodesCount', Number(n))}
            error={err('backupCodesCount')}
          />
        </Group>
        <NumberInput
          label="Session Timeout (seconds)"
          min={300}
          value={v.sessionTimeout}
          onChange={(n) => set('sessionTimeout', Number(n))}
          error={err('sessionTimeout')}
        />
        <Group grow align="flex-start">
          <Switch
            label="Trusted Devices"
            checked={v.trustedDevicesEnabled}
            onChange={(e) => set('trustedDevicesEnabled', e.currentTarget.checked)}
            mt="lg"
          />
          <NumberInput
            label="Trusted Device Expiry (seconds)"
            min={3600}
            value={v.trustedDeviceExpiry}
            onChange={(n) => set('trustedDeviceExpiry', Number(n))}
            error={err('trustedDeviceExpiry')}
          />
        </Group>
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button
            onClick={() => void save()}
            disabled={Object.keys(errors).length > 0 || busy}
            loading={busy}
          >
            Save
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
