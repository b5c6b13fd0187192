import { mailSettingsLabels as L } from '@mailroom/contract/mail';
import { ActionIcon, Button, Group, NumberInput, Stack, Text, TextInput, Tooltip } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import type { SettingsValues } from './settings-values.ts';

/** The MX list: add and remove lines; the last one cannot be removed (§5). */
export function MxRecordsField({ form }: { form: UseFormReturnType<SettingsValues> }) {
  const records = form.values.mxRecords;
  const nextPriority = records.reduce((max, r) => Math.max(max, Number(r.priority) || 0), 0) + 10;
  const listError = form.errors.mxRecords;
  return (
    <Stack gap="xs" role="group" aria-labelledby="mx-records-label">
      <Text size="sm" fw={500} id="mx-records-label">
        {L.mxRecords}
      </Text>
      {records.map((_, i) => (
        <Group key={form.key(`mxRecords.${i}`)} gap="xs" align="flex-start" wrap="nowrap">
          <NumberInput
            aria-label={`${L.mxPriority} of MX record ${i + 1}`}
            placeholder={L.mxPriority}
            min={0}
            max={65535}
            allowDecimal={false}
            allowNegative={false}
            w={110}
            {...form.getInputProps(`mxRecords.${i}.priority`)}
          />
          <TextInput
            aria-label={`${L.mxHost} of MX record ${i + 1}`}
            placeholder="mail.example.com"
            style={{ flex: 1 }}
            {...form.getInputProps(`mxRecords.${i}.host`)}
          />
          <Tooltip label={records.length === 1 ? 'At least one MX record must remain' : 'Remove'}>
            <ActionIcon
              variant="subtle"
              color="red"
              size="lg"
              aria-label={`Remove MX record ${i + 1}`}
              disabled={records.length === 1}
              onClick={() => form.removeListItem('mxRecords', i)}
            >
              <IconTrash size={18} aria-hidden />
            </ActionIcon>
          </Tooltip>
        </Group>
      ))}
      {typeof listError === 'string' && (
        <Text size="sm" c="red" role="alert">
          {listError}
        </Text>
      )}
      <Group>
        <Button
          variant="light"
          size="xs"
          leftSection={<IconPlus size={14} aria-hidden />}
          onClick={() => form.insertListItem('mxRecords', { priority: nextPriority, host: '' })}
        >
          Add MX Record
        </Button>
      </Group>
    </Stack>
  );
}
