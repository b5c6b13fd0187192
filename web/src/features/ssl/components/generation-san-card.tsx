import { Button, Card, Group, Pill, TextInput, Title } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import type { UseFormReturnType } from '@mantine/form';
import { type GenerationValues as Values } from './generation-form.ts';

type GenerationForm = UseFormReturnType<Values>;

/** Subject Alternative Names: the domain being typed, its Add button and the listed names. */
export function GenerationSanCard({
  form,
  san,
  onSanChange,
  onAdd,
}: {
  form: GenerationForm;
  san: string;
  onSanChange: (value: string) => void;
  onAdd: () => void;
}) {
  const v = form.values;
  return (
    <Card withBorder padding="md" radius="md">
      <Title order={2} size="h4" mb="sm">
        Subject Alternative Names
      </Title>
      <Group align="flex-end" gap="xs">
        <TextInput
          label="Additional domain"
          placeholder="www.example.com"
          value={san}
          onChange={(e) => onSanChange(e.currentTarget.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter') {
              e.preventDefault();
              onAdd();
            }
          }}
          error={form.errors.sanDomains}
          style={{ flex: 1 }}
        />
        <Button variant="light" leftSection={<IconPlus size={16} aria-hidden />} onClick={onAdd}>
          Add
        </Button>
      </Group>
      <Pill.Group mt="sm" data-testid="san-list">
        {v.sanDomains.map((d, i) => (
          <Pill
            key={d}
            withRemoveButton
            removeButtonProps={{ 'aria-label': `Remove ${d}` }}
            onRemove={() =>
              form.setFieldValue(
                'sanDomains',
                v.sanDomains.filter((_, j) => j !== i),
              )
            }
          >
            {d}
          </Pill>
        ))}
      </Pill.Group>
    </Card>
  );
}
