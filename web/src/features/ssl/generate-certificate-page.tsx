import type { JobEvent } from '@mailroom/contract/jobs';
import {
  CERTIFICATE_TYPES,
  CHALLENGE_TYPES,
  DNS_PROVIDERS,
  GENERATION_DEFAULTS,
  GENERATION_STEPS,
  GenerateCertificate,
  generateLabels,
  HTTP01_VIA,
  HTTP01_VIA_LABELS,
  generationSteps,
  KEY_ALGORITHMS,
  LETS_ENCRYPT_DIRECTORY,
  LETS_ENCRYPT_STAGING_DIRECTORY,
  SIGNATURE_ALGORITHMS,
  sslMessages,
  VALIDITY_PERIODS,
} from '@mailroom/contract/ssl';
import { DOMAIN_RE } from '@mailroom/contract/validators';
import {
  Button,
  Card,
  Grid,
  Group,
  PasswordInput,
  Pill,
  Select,
  SimpleGrid,
  Stack,
  Switch,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconPlus, IconRestore } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { ApiError, errorMessage } from '../../api/client.ts';
import { followJob } from '../../api/follow-job.ts';
import { toastsItsOwnEnd } from '../../api/own-job-toasts.ts';
import { PageHeader } from '../../components/page-header.tsx';
import { notify } from '../../lib/notifications-store.ts';
import { zodValidate } from '../../lib/zod-form.ts';
import { CsrResult } from './components/csr-result.tsx';
import { GenerationProgress } from './components/generation-progress.tsx';
import { sslKeys } from './ssl-keys.ts';
import { useCreateCsr } from './use-create-csr.ts';
import { useGenerateCertificate } from './use-generate-certificate.ts';

type Values = typeof GENERATION_DEFAULTS & { keySize: number | string; validityPeriod: number | string };

const METHOD_OPTIONS = [
  { value: 'self-signed', label: 'Self-signed (for testing)' },
  { value: 'csr', label: 'CSR for an outside CA' },
  { value: 'acme', label: 'ACME (Let’s Encrypt or another CA)' },
];

const keySizesFor = (alg: string) =>
  alg === 'RSA'
    ? ['2048', '3072', '4096']
    : alg === 'ECDSA'
      ? [
          { value: '256', label: '256 (P-256)' },
          { value: '384', label: '384 (P-384)' },
        ]
      : [{ value: '256', label: '256' }];

const toRequest = (v: Values) => ({
  ...v,
  keySize: Number(v.keySize),
  validityPeriod: Number(v.validityPeriod),
});

export default function GenerateCertificatePage() {
  const qc = useQueryClient();
  const createCsr = useCreateCsr();
  const startGeneration = useGenerateCertificate();
  const [san, setSan] = useState('');
  const [job, setJob] = useState<JobEvent | null>(null);
  // The steps of the method the running job was started with (the form resets after success).
  const [steps, setSteps] = useState<readonly string[]>(GENERATION_STEPS);
  const [busy, setBusy] = useState(false);
  const [csr, setCsr] = useState<{ id: number; domain: string; csr: string; privateKey: string } | null>(
    null,
  );
  const form = useForm<Values>({
    initialValues: { ...GENERATION_DEFAULTS, sanDomains: [] },
    validate: zodValidate(GenerateCertificate, toRequest),
    validateInputOnChange: true,
  });
  const v = form.values;
  const orgRequired = v.certificateType === 'OV' || v.certificateType === 'EV';
  const acme = v.method === 'acme';

  const reset = () => {
    form.setValues({ ...GENERATION_DEFAULTS, sanDomains: [] });
    form.resetDirty();
    form.resetTouched();
    setSan('');
  };

  const addSan = () => {
    const d = san.trim().toLowerCase();
    // §4: ignored if empty or already listed.
    if (!d || v.sanDomains.includes(d)) return;
    if (!DOMAIN_RE.test(d)) {
      form.setFieldError('sanDomains', 'Please enter a valid domain name');
      return;
    }
    form.setFieldValue('sanDomains', [...v.sanDomains, d]);
    setSan('');
  };

  const generate = async (values: Values) => {
    setBusy(true);
    setJob(null);
    setCsr(null);
    try {
      const body = toRequest(values);
      if (body.method === 'csr') {
        setCsr(await createCsr.mutateAsync(body));
        return;
      }
      setSteps(generationSteps(body.method));
      const accepted = await startGeneration.mutateAsync(body);
      // This page says how it ended: the job's own notification is not toasted a second time.
      toastsItsOwnEnd(accepted.jobId);
      const done = await followJob(accepted.jobId, (j) => setJob(j));
      setJob(done);
      if (done.state === 'succeeded') {
        notify({ type: 'success', title: 'Certificate generated', message: done.message ?? values.domain });
        reset();
        await qc.invalidateQueries({ queryKey: sslKeys.all });
      }
    } catch (err) {
      if (err instanceof ApiError && Object.keys(err.fieldErrors).length) form.setErrors(err.fieldErrors);
      notify({ type: 'error', title: 'Certificate generation failed', message: errorMessage(err) });
    } finally {
      setBusy(false);
    }
  };

  const summary: [string, string][] = [
    ['Domain', v.domain],
    ['Type', v.certificateType],
    ['Key Algorithm', v.keyAlgorithm],
    ['Key Size', String(v.keySize)],
    ['Validity', v.validityPeriod ? `${v.validityPeriod} days` : ''],
    ['Additional Domains', v.sanDomains.join(', ')],
  ];

  return (
    <>
      <PageHeader
        title="Certificate Generation"
        breadcrumbs={[
          { label: 'Dashboard', to: '/dashboard' },
          { label: 'SSL Management', to: '/ssl' },
          { label: 'Certificate Generation' },
        ]}
        subtitle="Self-signed, a CSR for your CA, or ACME"
        actions={
          <Button variant="default" leftSection={<IconRestore size={16} aria-hidden />} onClick={reset}>
            Reset Form
          </Button>
        }
      />
      <form onSubmit={form.onSubmit((values) => void generate(values))}>
        <Grid gutter="md">
          <Grid.Col span={{ base: 12, md: 8 }}>
            <Stack gap="md">
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
                  <Switch
                    label="Wildcard domain"
                    {...form.getInputProps('wildcardDomain', { type: 'checkbox' })}
                  />
                </Group>
              </Card>

              <Card withBorder padding="md" radius="md">
                <Title order={2} size="h4" mb="sm">
                  Subject Alternative Names
                </Title>
                <Group align="flex-end" gap="xs">
                  <TextInput
                    label="Additional domain"
                    placeholder="www.example.com"
                    value={san}
                    onChange={(e) => setSan(e.currentTarget.value)}
                    onKeyDown={(e) => {
                      if (e.key === 'Enter') {
                        e.preventDefault();
                        addSan();
                      }
                    }}
                    error={form.errors.sanDomains}
                    style={{ flex: 1 }}
                  />
                  <Button variant="light" leftSection={<IconPlus size={16} aria-hidden />} onClick={addSan}>
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
                  <TextInput
                    label={generateLabels.organizationalUnit}
                    {...form.getInputProps('organizationalUnit')}
                  />
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
                    acme
                      ? undefined
                      : 'Used by ACME; a self-signed certificate or a CSR asks no CA to validate'
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
            </Stack>
          </Grid.Col>
          <Grid.Col span={{ base: 12, md: 4 }}>
            <Stack gap="md">
              <Card withBorder padding="md" radius="md">
                <Title order={2} size="h4" mb="sm">
                  Generation Summary
                </Title>
                <Table>
                  <Table.Tbody>
                    {summary.map(([k, val]) => (
                      <Table.Tr key={k}>
                        <Table.Th scope="row">{k}</Table.Th>
                        <Table.Td>{val || sslMessages.notSpecified}</Table.Td>
                      </Table.Tr>
                    ))}
                  </Table.Tbody>
                </Table>
                <Button type="submit" fullWidth mt="md" disabled={busy || !form.isValid()}>
                  {busy ? 'Generating...' : 'Generate Certificate'}
                </Button>
              </Card>
              {job && (
                <GenerationProgress job={job} steps={steps} onRetry={() => void generate(form.values)} />
              )}
              {csr && (
                <CsrResult
                  csr={csr}
                  onDone={() => {
                    setCsr(null);
                    reset();
                    void qc.invalidateQueries({ queryKey: sslKeys.all });
                  }}
                />
              )}
            </Stack>
          </Grid.Col>
        </Grid>
      </form>
    </>
  );
}
