import { ALIAS_STATUSES } from '@mailroom/contract/mail';
import { SegmentedControl, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { useId } from 'react';

export interface AliasValues {
  source: string;
  destination: string;
  status: (typeof ALIAS_STATUSES)[number];
}

/** The alias fields shared by Create (source editable) and Edit (source fixed, status shown). */
export function AliasFields({
  form,
  mode,
}: {
  form: UseFormReturnType<AliasValues>;
  mode: 'create' | 'edit';
}) {
  const statusLabel = useId();
  return (
    <Stack gap="sm">
      <SimpleGrid cols={{ base: 1, sm: mode === 'create' ? 2 : 1 }}>
        <TextInput
          label="Source Email"
          placeholder="info@example.com"
          autoComplete="off"
          required={mode === 'create'}
          withAsterisk={mode === 'create'}
          readOnly={mode === 'edit'}
          variant={mode === 'edit' ? 'filled' : 'default'}
          {...form.getInputProps('source')}
        />
        <TextInput
          label="Destination Email"
          placeholder="user@example.com"
          description="One address, or several separated by commas"
          autoComplete="off"
          required
          withAsterisk
          {...form.getInputProps('destination')}
        />
      </SimpleGrid>
      {mode === 'edit' && (
        <div>
          <Text size="sm" fw={500} id={statusLabel} mb={4}>
            Status
          </Text>
          <SegmentedControl
            aria-labelledby={statusLabel}
            data={ALIAS_STATUSES.map((s) => ({ value: s, label: s === 'active' ? 'Active' : 'Disabled' }))}
            {...form.getInputProps('status')}
          />
        </div>
      )}
    </Stack>
  );
}
