import { generateLabels } from '@mailroom/contract/ssl';
import { Card, SimpleGrid, Text, TextInput, Title } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { type GenerationValues as Values } from './generation-form.ts';

type GenerationForm = UseFormReturnType<Values>;

/** The organization fields (required for OV and EV). */
export function GenerationOrganizationCard({ form }: { form: GenerationForm }) {
  const v = form.values;
  const orgRequired = v.certificateType === 'OV' || v.certificateType === 'EV';
  return (
    <Card withBorder padding="md" radius="md">
      <Title order={2} size="h4" mb="sm">
        Organization Information
      </Title>
      <Text size="sm" c="dimmed" mb="sm">
        For OV and EV certificates.
      </Text>
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <TextInput
          label={generateLabels.organizationName}
          required={orgRequired}
          {...form.getInputProps('organizationName')}
        />
        <TextInput label={generateLabels.organizationalUnit} {...form.getInputProps('organizationalUnit')} />
        <TextInput
          label={generateLabels.country}
          required={orgRequired}
          description="Two-letter code, e.g. US"
          {...form.getInputProps('country')}
        />
        <TextInput label={generateLabels.state} {...form.getInputProps('state')} />
        <TextInput label={generateLabels.city} {...form.getInputProps('city')} />
        <TextInput label={generateLabels.email} type="email" {...form.getInputProps('email')} />
      </SimpleGrid>
    </Card>
  );
}
