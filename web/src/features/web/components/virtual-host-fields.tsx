import {
  BACKUP_FREQUENCIES,
  PHP_VERSIONS,
  VHOST_STATUSES,
  vhostLabels as L,
  type PhpLimits,
  type VhostFormValues,
  type WebCapabilities,
} from '@mailroom/contract/web';
import { Fieldset, Select, SimpleGrid, Stack, Text, Textarea } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import danger from '../../../components/danger-text.module.css';
import { rateLimitModuleState } from '../rate-limit-module.ts';
import { CertificatePicker } from './certificate-picker.tsx';
import { vhostFieldControls } from './vhost-field-controls.tsx';

type Form = UseFormReturnType<VhostFormValues>;

const STATUS_LABELS: Record<(typeof VHOST_STATUSES)[number], string> = {
  active: 'Active',
  inactive: 'Inactive',
  maintenance: 'Maintenance',
};
const FREQUENCY_LABELS: Record<(typeof BACKUP_FREQUENCIES)[number], string> = {
  daily: 'Daily',
  weekly: 'Weekly',
  monthly: 'Monthly',
  never: 'Never',
};

/**
 * The values the fields' own state depends on (greyed-out groups, the PHP note, the certificate
 * picker). The form is uncontrolled, so typing re-renders nothing; these are watched by the parent.
 */
export type WatchedVhostValues = Pick<
  VhostFormValues,
  | 'sslEnabled'
  | 'sslCertificateId'
  | 'enableCaching'
  | 'enablePhp'
  | 'phpVersion'
  | 'enableRateLimiting'
  | 'enableAccessControl'
  | 'enableMaintenanceMode'
  | 'enableBackup'
> & {
  /** The served names (only while SSL is on: the picker needs them). */
  names: string[];
};

export interface VirtualHostFieldsProps {
  form: Form;
  values: WatchedVhostValues;
  /** What this server can do (null while loading): disabled fields with the reason, PHP versions. */
  capabilities: WebCapabilities | null;
  /** The server-wide PHP limits (Server Configuration): the most a host may ask for (null: loading). */
  ceiling?: PhpLimits | null;
}

/**
 * Every field of a virtual host (spec 3 §3.1) in the modal's sections (§2.2), shared by Add and
 * Edit. A field the server cannot honour (a missing Apache module, a PHP version not installed) is
 * disabled with the server's reason under it.
 */
export function VirtualHostFields({ form, values, capabilities, ceiling = null }: VirtualHostFieldsProps) {
  const atMost = (v: string | number | undefined, unit = '') =>
    v === undefined ? undefined : `At most ${v}${unit} (Server Configuration)`;
  const { reasonOf, sectionNote, note, toggle, text, number } = vhostFieldControls(form, capabilities);

  const installed = new Map(capabilities?.phpVersions.map((p) => [p.version, p.installed]) ?? []);
  const phpOptions = PHP_VERSIONS.map((v) => {
    const known = installed.get(v);
    return {
      value: v,
      label: known === false ? `${v} (not installed)` : v,
      disabled: known === false && values.phpVersion !== v,
    };
  });
  const phpVersionMissing = installed.get(values.phpVersion) === false;
  const roots = capabilities?.allowedRoots ?? [];

  return (
    <Stack gap="md">
      <Fieldset legend="Basic" radius="md">
        {sectionNote('Basic')}
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
          {text('domain', { required: true, placeholder: 'example.com' })}
          {text('serverName', { required: true, placeholder: 'www.example.com' })}
          {text('serverAlias', {
            help: 'Comma-separated host names',
            placeholder: 'example.com, shop.example.com',
          })}
          {text('documentRoot', {
            required: true,
            placeholder: '/var/www/example.com',
            help: roots.length > 0 ? `Inside ${roots.join(' or ')}` : undefined,
          })}
          {text('ipAddress', { required: true, help: '* listens on every address' })}
          {number('port', { max: 65535 })}
          <Select
            label={L.status}
            data={VHOST_STATUSES.map((s) => ({ value: s, label: STATUS_LABELS[s] }))}
            allowDeselect={false}
            withAsterisk
            key={form.key('status')}
            {...form.getInputProps('status')}
          />
        </SimpleGrid>
      </Fieldset>

      <Fieldset legend="SSL" radius="md">
        {sectionNote('SSL')}
        <Stack gap="sm">
          {toggle('sslEnabled')}
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
            {number('sslPort', {
              max: 65535,
              required: false,
              off: !values.sslEnabled,
              help: "Empty: the SSL settings' Server Port",
            })}
            {toggle('redirectHttpToHttps')}
          </SimpleGrid>
          {values.sslEnabled && (
            <>
              <CertificatePicker
                form={form}
                names={values.names}
                certificateId={values.sslCertificateId}
                reason={reasonOf('sslCertificateId')}
              />
              {values.sslCertificateId === null && (
                <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="sm">
                  {text('sslCertificate', {
                    placeholder: '/etc/ssl/certs/example.com.pem',
                    help: "Empty, with the key empty too: the SSL settings' Default Certificate",
                  })}
                  {text('sslPrivateKey', { placeholder: '/etc/ssl/private/example.com.key' })}
                  {text('sslCertificateChain', { help: 'Optional' })}
                </SimpleGrid>
              )}
            </>
          )}
        </Stack>
      </Fieldset>

      <Fieldset legend="Performance" radius="md">
        {sectionNote('Performance')}
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
          {toggle('enableGzip')}
          {toggle('enableRewrite')}
          {toggle('enableCaching')}
          {number('cacheExpiry', { help: 'Seconds', off: !values.enableCaching })}
        </SimpleGrid>
      </Fieldset>

      <Fieldset legend="PHP" radius="md">
        {sectionNote('PHP')}
        <Stack gap="sm">
          {toggle('enablePhp', 'Through PHP-FPM: one pool per site, running as the site’s own user')}
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
            <Select
              label={L.phpVersion}
              data={phpOptions}
              allowDeselect={false}
              withAsterisk
              disabled={!values.enablePhp || reasonOf('phpVersion') !== null}
              description={note(
                'phpVersion',
                phpVersionMissing ? (
                  <Text span size="xs" className={danger.danger}>
                    PHP {values.phpVersion} is not installed on this server
                  </Text>
                ) : undefined,
              )}
              key={form.key('phpVersion')}
              {...form.getInputProps('phpVersion')}
            />
            {text('phpMemoryLimit', {
              required: true,
              placeholder: '128M',
              off: !values.enablePhp,
              help: atMost(ceiling?.phpMemoryLimit),
            })}
            {number('phpMaxExecutionTime', {
              help: ceiling
                ? `Seconds; at most ${ceiling.phpMaxExecutionTime} (Server Configuration)`
                : 'Seconds',
              off: !values.enablePhp,
            })}
            {text('phpUploadMaxFilesize', {
              required: true,
              placeholder: '2M',
              off: !values.enablePhp,
              help: atMost(ceiling?.phpUploadMaxFilesize),
            })}
            {text('phpPostMaxSize', {
              required: true,
              placeholder: '8M',
              off: !values.enablePhp,
              help: atMost(ceiling?.phpPostMaxSize),
            })}
          </SimpleGrid>
        </Stack>
      </Fieldset>

      <Fieldset legend="Security" radius="md">
        {sectionNote('Security')}
        <Stack gap="sm">
          {toggle('enableSecurityHeaders', 'The set chosen in Server Configuration')}
          {toggle('enableRateLimiting', capabilities ? rateLimitModuleState(capabilities) : undefined)}
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
            {number('rateLimitRequests', { off: !values.enableRateLimiting })}
            {number('rateLimitWindow', { help: 'Seconds', off: !values.enableRateLimiting })}
          </SimpleGrid>
          {toggle('enableAccessControl')}
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
            {text('allowedIps', {
              help: 'Comma-separated addresses or ranges; empty: everyone',
              placeholder: '192.0.2.0/24',
              off: !values.enableAccessControl,
            })}
            {text('blockedIps', {
              help: 'Comma-separated addresses or ranges',
              placeholder: '198.51.100.7',
              off: !values.enableAccessControl,
            })}
          </SimpleGrid>
        </Stack>
      </Fieldset>

      <Fieldset legend="Maintenance" radius="md">
        {sectionNote('Maintenance')}
        <Stack gap="sm">
          {toggle('enableMaintenanceMode', 'Answers 503 with Retry-After, except to the allowed IPs')}
          {text('maintenanceMessage', { off: !values.enableMaintenanceMode })}
          {toggle(
            'enableBackup',
            'The site’s files join the system backups, and get backups of their own (System → Backups, scope “site”)',
          )}
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
            <Select
              label={L.backupFrequency}
              data={BACKUP_FREQUENCIES.map((f) => ({ value: f, label: FREQUENCY_LABELS[f] }))}
              allowDeselect={false}
              withAsterisk
              disabled={!values.enableBackup || reasonOf('backupFrequency') !== null}
              description={note(
                'backupFrequency',
                'At the system backups’ hour; weekly on Sunday, monthly on the 1st',
              )}
              key={form.key('backupFrequency')}
              {...form.getInputProps('backupFrequency')}
            />
            {number('backupRetention', {
              off: !values.enableBackup,
              help: 'How many of this site’s own backups are kept (the oldest go first)',
            })}
          </SimpleGrid>
        </Stack>
      </Fieldset>

      <Fieldset legend="Custom Directives" radius="md">
        {sectionNote('Custom Directives')}
        <Textarea
          label={L.customDirectives}
          description={note(
            'customDirectives',
            'Apache directives inside this host, checked by Apache before they are applied',
          )}
          disabled={reasonOf('customDirectives') !== null}
          autosize
          minRows={3}
          maxRows={12}
          styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
          key={form.key('customDirectives')}
          {...form.getInputProps('customDirectives')}
        />
      </Fieldset>
    </Stack>
  );
}
