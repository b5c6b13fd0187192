import {
  CHALLENGE_TYPES,
  DNS_PROVIDERS,
  generateLabels,
  HTTP01_VIA,
  HTTP01_VIA_LABELS,
} from '@mailroom/contract/ssl';
import { Card, PasswordInput, Select, SimpleGrid, TextInput, Title } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { type GenerationValues as Values } from './generation-form.ts';

type GenerationForm = UseFormReturnType<Values>;

/** The domain validation challenge: HTTP (web server or webroot) or DNS (Mailroom zones or a provider). */
export function GenerationChallengeCard({ form }: { form: GenerationForm }) {
  const v = form.values;
  const acme = v.method === 'acme';
  return (
    <Card withBorder padding="md" radius="md">
      <Title order={2} size="h4" mb="sm">
        Domain Validation Challenge
      </Title>
      <Select
        label={generateLabels.challengeType}
        required
        data={CHALLENGE_TYPES.map((c) => ({ value: c, label: c.toUpperCase() }))}
        allowDeselect={false}
        {...form.getInputProps('challengeType')}
        description={
          acme ? undefined : 'Used by ACME; a self-signed certificate or a CSR asks no CA to validate'
        }
      />
      {v.challengeType === 'http' && (
        <Select
          mt="sm"
          label={generateLabels.httpVia}
          data={HTTP01_VIA.map((h) => ({ value: h, label: HTTP01_VIA_LABELS[h] }))}
          allowDeselect={false}
          description={
            v.httpVia === 'web-server'
              ? 'Apache serves the challenge for every virtual host: no webroot to make by hand'
              : undefined
          }
          {...form.getInputProps('httpVia')}
        />
      )}
      {v.challengeType === 'http' && v.httpVia === 'webroot' && (
        <TextInput
          mt="sm"
          label={generateLabels.webrootPath}
          required={acme}
          placeholder="/var/www/html"
          {...form.getInputProps('webrootPath')}
        />
      )}
      {v.challengeType === 'dns' && (
        <SimpleGrid cols={{ base: 1, sm: 3 }} mt="sm">
          <Select
            label={generateLabels.dnsProvider}
            required={acme}
            data={[
              { value: 'mailroom', label: 'Mailroom DNS zones' },
              ...DNS_PROVIDERS.map((p) => ({ value: p, label: p })),
            ]}
            {...form.getInputProps('dnsProvider')}
          />
          <PasswordInput
            label={generateLabels.dnsApiKey}
            required={acme && v.dnsProvider !== 'mailroom'}
            {...form.getInputProps('dnsCredentials.apiKey')}
          />
          <PasswordInput
            label={generateLabels.dnsApiSecret}
            required={acme && v.dnsProvider !== 'mailroom'}
            {...form.getInputProps('dnsCredentials.apiSecret')}
          />
        </SimpleGrid>
      )}
    </Card>
  );
}
