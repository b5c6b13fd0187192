import {
  appLabels as L,
  type AppField,
  type AppFormValues,
  type WebAppCapabilities,
} from '@mailroom/contract/web';
import { Fieldset, NumberInput, Select, Switch, Text, TextInput } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import type { ReactNode } from 'react';
import danger from '../../../components/danger-text.module.css';
import { appFieldReasons, type AppSection } from '../app-form-sections.ts';

type Form = UseFormReturnType<AppFormValues>;

/**
 * The field builders of the application form's sections (a field this server cannot honour yet is
 * disabled with the server's reason under it, or above its section).
 */
export function appFieldControls(form: Form, capabilities: WebAppCapabilities | null) {
  const reasons = appFieldReasons(capabilities);
  const sectionNote = (s: AppSection) =>
    reasons.section[s].map((r) => (
      <Text key={r} size="sm" className={danger.danger} mb="xs">
        {r}
      </Text>
    ));
  const note = (name: AppField, help?: ReactNode): ReactNode => {
    const reason = reasons.perField[name];
    if (reason)
      return (
        <Text span size="xs" className={danger.danger}>
          {reason}
        </Text>
      );
    return help;
  };
  const off = (name: AppField, extra?: boolean) => reasons.disabled(name) || Boolean(extra);

  const toggle = (name: AppField, help?: ReactNode) => (
    <Switch
      label={L[name]}
      description={note(name, help)}
      disabled={off(name)}
      key={form.key(name)}
      {...form.getInputProps(name, { type: 'checkbox' })}
    />
  );
  const text = (
    name: AppField,
    o: { help?: ReactNode; required?: boolean; placeholder?: string; off?: boolean; mono?: boolean } = {},
  ) => (
    <TextInput
      label={L[name]}
      description={note(name, o.help)}
      placeholder={o.placeholder}
      withAsterisk={o.required}
      disabled={off(name, o.off)}
      styles={o.mono ? { input: { fontFamily: 'var(--mantine-font-family-monospace)' } } : undefined}
      key={form.key(name)}
      {...form.getInputProps(name)}
    />
  );
  const number = (
    name: AppField,
    o: { help?: ReactNode; min?: number; max?: number; off?: boolean } = {},
  ) => (
    <NumberInput
      label={L[name]}
      description={note(name, o.help)}
      withAsterisk
      min={o.min ?? 1}
      max={o.max}
      allowDecimal={false}
      allowNegative={false}
      clampBehavior="none"
      disabled={off(name, o.off)}
      key={form.key(name)}
      {...form.getInputProps(name)}
    />
  );
  const select = (
    name: AppField,
    data: { value: string; label: string; disabled?: boolean }[],
    o: { help?: ReactNode; off?: boolean } = {},
  ) => (
    <Select
      label={L[name]}
      data={data}
      allowDeselect={false}
      withAsterisk
      description={note(name, o.help)}
      disabled={off(name, o.off)}
      key={form.key(name)}
      {...form.getInputProps(name)}
    />
  );
  const options = <T extends string>(values: readonly T[], labels: Record<T, string>) =>
    values.map((v) => ({ value: v, label: labels[v] }));
  const section = (s: AppSection, body: ReactNode) => (
    <Fieldset legend={s} radius="md" key={s}>
      {sectionNote(s)}
      {body}
    </Fieldset>
  );

  return { note, off, toggle, text, number, select, options, section };
}
