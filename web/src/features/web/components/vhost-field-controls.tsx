import {
  vhostLabels as L,
  type VhostField,
  type VhostFormValues,
  type WebCapabilities,
} from '@mailroom/contract/web';
import { NumberInput, Switch, Text, TextInput } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import type { ReactNode } from 'react';
import danger from '../../../components/danger-text.module.css';
import { sharedReasons } from '../shared-reasons.ts';

type Form = UseFormReturnType<VhostFormValues>;

/** The fields of each section of the modal (spec 3 §2.2), for reasons said once per section. */
const SECTION_FIELDS: Record<string, VhostField[]> = {
  Basic: ['domain', 'serverName', 'serverAlias', 'documentRoot', 'ipAddress', 'port', 'status'],
  SSL: [
    'sslEnabled',
    'sslPort',
    'redirectHttpToHttps',
    'sslCertificateId',
    'sslCertificate',
    'sslPrivateKey',
    'sslCertificateChain',
  ],
  Performance: ['enableGzip', 'enableRewrite', 'enableCaching', 'cacheExpiry'],
  PHP: [
    'enablePhp',
    'phpVersion',
    'phpMemoryLimit',
    'phpMaxExecutionTime',
    'phpUploadMaxFilesize',
    'phpPostMaxSize',
  ],
  Security: [
    'enableSecurityHeaders',
    'enableRateLimiting',
    'rateLimitRequests',
    'rateLimitWindow',
    'enableAccessControl',
    'allowedIps',
    'blockedIps',
  ],
  Maintenance: [
    'enableMaintenanceMode',
    'maintenanceMessage',
    'enableBackup',
    'backupFrequency',
    'backupRetention',
  ],
  'Custom Directives': ['customDirectives'],
};

/**
 * The field builders of the virtual host form's sections: a field the server cannot honour is
 * disabled with the server's reason under it (or, shared by a section, at the top of the section).
 */
export function vhostFieldControls(form: Form, capabilities: WebCapabilities | null) {
  const reasonOf = (name: VhostField): string | null => capabilities?.vhostFields[name] ?? null;

  // A reason shared by several fields of a section is said once, at the top of the section.
  const shared = Object.fromEntries(
    Object.entries(SECTION_FIELDS).map(([section, fields]) => [
      section,
      sharedReasons(fields, capabilities?.vhostFields ?? {}),
    ]),
  );
  const perField: Record<string, string> = {};
  for (const x of Object.values(shared)) Object.assign(perField, x.perField);
  const sectionNote = (section: string) =>
    shared[section]?.section.map((r) => (
      <Text key={r} size="sm" className={danger.danger} mb="xs">
        {r}
      </Text>
    ));

  const note = (name: VhostField, help?: ReactNode): ReactNode => {
    const reason = perField[name] ?? null;
    if (reason)
      return (
        <Text span size="xs" className={danger.danger}>
          {reason}
        </Text>
      );
    return help;
  };

  const toggle = (name: VhostField, help?: ReactNode) => (
    <Switch
      label={L[name]}
      description={note(name, help)}
      disabled={reasonOf(name) !== null}
      key={form.key(name)}
      {...form.getInputProps(name, { type: 'checkbox' })}
    />
  );

  const text = (
    name: VhostField,
    opts: { help?: ReactNode; required?: boolean; placeholder?: string; off?: boolean } = {},
  ) => (
    <TextInput
      label={L[name]}
      description={note(name, opts.help)}
      placeholder={opts.placeholder}
      withAsterisk={opts.required}
      disabled={reasonOf(name) !== null || opts.off}
      key={form.key(name)}
      {...form.getInputProps(name)}
    />
  );

  const number = (
    name: VhostField,
    opts: { help?: ReactNode; max?: number; required?: boolean; off?: boolean } = {},
  ) => (
    <NumberInput
      label={L[name]}
      description={note(name, opts.help)}
      withAsterisk={opts.required ?? true}
      min={1}
      max={opts.max}
      allowDecimal={false}
      allowNegative={false}
      clampBehavior="none"
      disabled={reasonOf(name) !== null || opts.off}
      key={form.key(name)}
      {...form.getInputProps(name)}
    />
  );

  return { reasonOf, sectionNote, note, toggle, text, number };
}
