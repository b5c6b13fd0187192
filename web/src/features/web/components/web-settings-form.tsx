import {
  PHP_VERSIONS,
  WEB_SETTINGS_DEFAULTS,
  WEB_SETTINGS_SECTIONS,
  type WebServerSettings,
  webSettingsLabels as L,
  webSettingsMessages as M,
  type WebCapabilities,
  type WebSettingsField,
} from '@mailroom/contract/web';
import {
  Button,
  Card,
  Group,
  NumberInput,
  Select,
  SimpleGrid,
  Switch,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { IconDeviceFloppy, IconRestore } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import danger from '../../../components/danger-text.module.css';
import { rateLimitModuleState } from '../rate-limit-module.ts';
import { sharedReasons } from '../shared-reasons.ts';
import {
  SETTINGS_CHOICES,
  SETTINGS_HELP,
  SETTINGS_LAYOUT,
  SETTINGS_PARENT,
  SETTINGS_RANGE,
} from '../settings-sections.ts';

export type SettingsForm = UseFormReturnType<WebServerSettings>;

const sectionId = (s: string) => `web-settings-${s.toLowerCase().replace(/\s+/g, '-')}`;

/** The values the form's own state depends on: every switch, the PHP version and handler. */
export type WatchedSettings = Pick<WebServerSettings, 'phpVersion' | 'phpHandler'> & Record<string, unknown>;

/** What the uncontrolled form watches (a keystroke in a text field changes none of it). */
export function watchedSettings(v: WebServerSettings): WatchedSettings {
  const out: WatchedSettings = { phpVersion: v.phpVersion, phpHandler: v.phpHandler };
  for (const [k, x] of Object.entries(v)) if (typeof x === 'boolean') out[k] = x;
  return out;
}

export interface WebSettingsFormProps {
  form: SettingsForm;
  values: WatchedSettings;
  /** The whole form passes the contract's schema (Save is disabled otherwise). */
  valid: boolean;
  capabilities: WebCapabilities | null;
  saving: boolean;
  resetting: boolean;
  onSave: (values: WebServerSettings) => void;
  onReset: () => void;
}

/**
 * The server configuration form (spec 3 §2.4) in its seven sections. Settings the installed Apache
 * or PHP cannot honour are disabled with the server's reason (the module to enable).
 */
export function WebSettingsForm({
  form,
  values,
  valid,
  capabilities,
  saving,
  resetting,
  onSave,
  onReset,
}: WebSettingsFormProps) {
  const reasonOf = (f: WebSettingsField): string | null => capabilities?.settingsFields[f] ?? null;
  const installed = new Map(capabilities?.phpVersions.map((p) => [p.version, p.installed]) ?? []);

  // A reason shared by several fields of a section is said once, above the section.
  const reasons = capabilities?.settingsFields ?? {};
  const shared = Object.fromEntries(
    WEB_SETTINGS_SECTIONS.map((section) => [section, sharedReasons(SETTINGS_LAYOUT[section], reasons)]),
  ) as Record<(typeof WEB_SETTINGS_SECTIONS)[number], ReturnType<typeof sharedReasons>>;
  const perField: Record<string, string> = {};
  for (const x of Object.values(shared)) Object.assign(perField, x.perField);

  const description = (f: WebSettingsField, extra?: ReactNode): ReactNode => {
    const reason = perField[f] ?? null;
    if (reason)
      return (
        <Text span size="xs" className={danger.danger}>
          {reason}
        </Text>
      );
    return extra ?? SETTINGS_HELP[f];
  };

  const field = (f: WebSettingsField) => {
    const parent = SETTINGS_PARENT[f];
    const off = reasonOf(f) !== null || (parent !== undefined && !values[parent]);
    // The kind of input follows the setting's type (its default's).
    const value = WEB_SETTINGS_DEFAULTS[f];
    if (typeof value === 'boolean')
      return (
        <Switch
          key={form.key(f)}
          label={L[f]}
          description={description(f)}
          disabled={off}
          mt="xs"
          {...form.getInputProps(f, { type: 'checkbox' })}
        />
      );
    if (f === 'phpVersion') {
      const data = PHP_VERSIONS.map((v) => ({
        value: v,
        label: installed.get(v) === false ? `${v} (not installed)` : v,
        disabled: installed.get(v) === false && values.phpVersion !== v,
      }));
      return (
        <Select
          key={form.key(f)}
          label={L[f]}
          data={data}
          allowDeselect={false}
          withAsterisk
          disabled={off}
          description={description(
            f,
            installed.get(values.phpVersion) === false ? (
              <Text span size="xs" className={danger.danger}>
                PHP {values.phpVersion} is not installed on this server
              </Text>
            ) : undefined,
          )}
          {...form.getInputProps(f)}
        />
      );
    }
    const choices = SETTINGS_CHOICES[f];
    if (choices) {
      const data = choices.map((c) =>
        // PHP runs through php-fpm, one pool per site: the other handlers are shown, not offered.
        f === 'phpHandler' && c !== 'php-fpm' && values.phpHandler !== c
          ? { value: c, label: `${c} (not available)`, disabled: true }
          : { value: c, label: c },
      );
      return (
        <Select
          key={form.key(f)}
          label={L[f]}
          data={data}
          allowDeselect={false}
          withAsterisk
          disabled={off}
          description={description(
            f,
            f === 'phpHandler' && values.phpHandler !== 'php-fpm'
              ? M.handlerUnavailable(values.phpHandler)
              : undefined,
          )}
          {...form.getInputProps(f)}
        />
      );
    }
    if (typeof value === 'number') {
      const range = SETTINGS_RANGE[f] ?? { min: 1 };
      return (
        <NumberInput
          key={form.key(f)}
          label={L[f]}
          description={description(f)}
          withAsterisk
          min={range.min}
          max={range.max}
          allowDecimal={false}
          allowNegative={false}
          clampBehavior="none"
          disabled={off}
          {...form.getInputProps(f)}
        />
      );
    }
    if (f === 'customDirectives')
      return (
        <Textarea
          key={form.key(f)}
          label={L[f]}
          description={description(f)}
          disabled={off}
          autosize
          minRows={4}
          maxRows={14}
          styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
          style={{ gridColumn: '1 / -1' }}
          {...form.getInputProps(f)}
        />
      );
    const optional = f === 'xFrameOptionsAllowFrom' || f === 'customLogFormat' || f === 'cspPolicy';
    return (
      <TextInput
        key={form.key(f)}
        label={L[f]}
        description={description(f)}
        withAsterisk={!optional}
        disabled={off}
        {...form.getInputProps(f)}
      />
    );
  };

  return (
    <form onSubmit={form.onSubmit(onSave)} noValidate>
      {WEB_SETTINGS_SECTIONS.map((section) => (
        <Card
          key={section}
          withBorder
          radius="md"
          padding="lg"
          mb="md"
          component="section"
          aria-labelledby={sectionId(section)}
        >
          <Title order={2} size="h4" mb="sm" id={sectionId(section)}>
            {section}
          </Title>
          {section === 'Rate Limiting' && capabilities && (
            <Text size="sm" c="dimmed" mb="sm" title={capabilities.rateLimitModule.reason}>
              {rateLimitModuleState(capabilities)}
            </Text>
          )}
          {shared[section].section.map((r) => (
            <Text key={r} size="sm" className={danger.danger} mb="sm">
              {r}
            </Text>
          ))}
          <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="md" verticalSpacing="sm">
            {SETTINGS_LAYOUT[section].map(field)}
          </SimpleGrid>
        </Card>
      ))}
      <Group justify="flex-end" gap="xs">
        <Button
          variant="default"
          leftSection={<IconRestore size={16} aria-hidden />}
          onClick={onReset}
          loading={resetting}
          disabled={saving}
        >
          Reset to Defaults
        </Button>
        <Button
          type="submit"
          leftSection={<IconDeviceFloppy size={16} aria-hidden />}
          disabled={saving || resetting || !valid}
        >
          {saving ? M.saving : 'Save Configuration'}
        </Button>
      </Group>
    </form>
  );
}
