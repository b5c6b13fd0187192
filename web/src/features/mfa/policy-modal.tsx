import { POLICY_METHODS, type MfaPolicy, type MfaPolicyInput } from '@mailroom/contract/mfa';
import {
  Button,
  Checkbox,
  Group,
  Modal,
  NumberInput,
  Stack,
  Switch,
  Textarea,
  TextInput,
} from '@mantine/core';
import { useEffect, useState } from 'react';
import { ApiError } from '../../api/client.ts';

type Values = Required<Omit<MfaPolicyInput, 'allowedMethods'>> & { allowedMethods: string[] };

const DEFAULTS: Values = {
  name: '',
  description: '',
  enabled: true,
  requireMfa: true,
  appliesTo: 'admins',
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
  if (!/^(admins|domain:[a-z0-9.-]+\.[a-z]{2,})$/.test(v.appliesTo.trim().toLowerCase()))
    e.appliesTo = 'Applies To format is invalid';
  if (v.backupCodesCount < 1) e.backupCodesCount = 'Backup Codes must be at least 1';
  if (v.backupCodesCount > 20) e.backupCodesCount = 'Backup Codes must be at most 20';
  if (v.sessionTimeout < 300) e.sessionTimeout = 'Session Timeout must be at least 300';
  if (v.trustedDeviceExpiry < 3600) e.trustedDeviceExpiry = 'Trusted Device Expiry must be at least 3600';
  return e;
}

/** Add MFA Policy / edit: the spec's policy fields; who it applies to ('admins' or 'domain:<name>'). */
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
        <TextInput
          label="Applies To"
          description="admins (every console administrator) or domain:<name> (that domain's users)"
          value={v.appliesTo}
          onChange={(e) => set('appliesTo', e.currentTarget.value)}
          error={err('appliesTo')}
        />
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
