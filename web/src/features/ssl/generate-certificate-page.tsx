import type { JobEvent } from '@mailroom/contract/jobs';
import {
  GENERATION_DEFAULTS,
  GENERATION_STEPS,
  GenerateCertificate,
  generationSteps,
  sslMessages,
} from '@mailroom/contract/ssl';
import { DOMAIN_RE } from '@mailroom/contract/validators';
import { Button, Card, Grid, Stack, Table, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconRestore } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { ApiError, errorMessage } from '../../api/client.ts';
import { followJob } from '../../api/follow-job.ts';
import { toastsItsOwnEnd } from '../../api/own-job-toasts.ts';
import { PageHeader } from '../../components/page-header.tsx';
import { notify } from '../../lib/notifications-store.ts';
import { zodValidate } from '../../lib/zod-form.ts';
import { CsrResult } from './components/csr-result.tsx';
import { GenerationBasicsCard } from './components/generation-basics-card.tsx';
import { GenerationChallengeCard } from './components/generation-challenge-card.tsx';
import { type GenerationValues as Values, toRequest } from './components/generation-form.ts';
import { GenerationOrganizationCard } from './components/generation-organization-card.tsx';
import { GenerationSanCard } from './components/generation-san-card.tsx';
import { GenerationProgress } from './components/generation-progress.tsx';
import { sslKeys } from './ssl-keys.ts';
import { useCreateCsr } from './use-create-csr.ts';
import { useGenerateCertificate } from './use-generate-certificate.ts';

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
              <GenerationBasicsCard form={form} />

              <GenerationSanCard form={form} san={san} onSanChange={setSan} onAdd={addSan} />

              <GenerationOrganizationCard form={form} />

              <GenerationChallengeCard form={form} />
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
