import {
  CERTIFICATE_TYPES,
  generateLabels,
  KEY_ALGORITHMS,
  LETS_ENCRYPT_DIRECTORY,
  LETS_ENCRYPT_STAGING_DIRECTORY,
  SIGNATURE_ALGORITHMS,
  VALIDITY_PERIODS,
} from '@mailroom/contract/ssl';
import { Card, Group, Select, SimpleGrid, Switch, TextInput, Title } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { type GenerationValues as Values, keySizesFor, METHOD_OPTIONS } from './generation-form.ts';

type GenerationForm = UseFormReturnType<Values>;

/** The basic information: domain, method, type, key and validity, ACME directory, renewal and wildcard. */
export function GenerationBasicsCard({ form }: { form: GenerationForm }) {
  const v = form.values;
  const acme = v.method === 'acme';
  return (
    <Card withBorder padding="md" radius="md">
      <Title order={2} size="h4" mb="sm">
        Basic Certificate Information
      </Title>
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <TextInput
          label={generateLabels.domain}
          required
          placeholder="example.com"
          {...form.getInputProps('domain')}
        />
        <Select
          label={generateLabels.method}
          data={METHOD_OPTIONS}
          allowDeselect={false}
          {...form.getInputProps('method')}
        />
        <Select
          label={generateLabels.certificateType}
          required
          data={[...CERTIFICATE_TYPES]}
          allowDeselect={false}
          {...form.getInputProps('certificateType')}
        />
        <Select
          label={generateLabels.keyAlgorithm}
          required
          data={[...KEY_ALGORITHMS]}
          allowDeselect={false}
          {...form.getInputProps('keyAlgorithm')}
          onChange={(alg) => {
            form.setFieldValue('keyAlgorithm', (alg ?? 'RSA') as Values['keyAlgorithm']);
            form.setFieldValue('keySize', alg === 'RSA' ? 2048 : 256);
          }}
        />
        <Select
          label={generateLabels.keySize}
          required
          data={keySizesFor(v.keyAlgorithm)}
          allowDeselect={false}
          value={String(v.keySize)}
          onChange={(s) => form.setFieldValue('keySize', Number(s))}
          error={form.errors.keySize}
        />
        <Select
          label={generateLabels.signatureAlgorithm}
          required
          data={[...SIGNATURE_ALGORITHMS]}
          allowDeselect={false}
          {...form.getInputProps('signatureAlgorithm')}
        />
        <Select
          label={generateLabels.validityPeriod}
          required
          data={VALIDITY_PERIODS.map((d) => ({ value: String(d), label: `${d} days` }))}
          allowDeselect={false}
          value={String(v.validityPeriod)}
          onChange={(s) => form.setFieldValue('validityPeriod', Number(s))}
          description={acme ? 'The CA decides the validity of an ACME certificate' : undefined}
        />
        {acme && (
          <Select
            label={generateLabels.acmeDirectoryUrl}
            data={[
              { value: LETS_ENCRYPT_DIRECTORY, label: "Let's Encrypt" },
              { value: LETS_ENCRYPT_STAGING_DIRECTORY, label: "Let's Encrypt (staging)" },
            ]}
            searchable
            allowDeselect={false}
            {...form.getInputProps('acmeDirectoryUrl')}
          />
        )}
      </SimpleGrid>
      <Group mt="md">
        <Switch label="Auto-renewal" {...form.getInputProps('autoRenewal', { type: 'checkbox' })} />
        <Switch label="Wildcard domain" {...form.getInputProps('wildcardDomain', { type: 'checkbox' })} />
      </Group>
    </Card>
  );
}
