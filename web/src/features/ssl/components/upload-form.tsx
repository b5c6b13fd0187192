import { CERTIFICATE_TYPES, UPLOAD_DEFAULTS, UploadCertificate, uploadLabels } from '@mailroom/contract/ssl';
import {
  Button,
  Card,
  FileButton,
  Group,
  NumberInput,
  PasswordInput,
  Select,
  SimpleGrid,
  Stack,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { useState } from 'react';
import { ApiError, errorMessage } from '../../../api/client.ts';
import { notify } from '../../../lib/notifications-store.ts';
import { useUploadCertificate } from '../use-upload-certificate.ts';
import { numberOrUndefined, type NumberField, zodValidate } from '../../../lib/zod-form.ts';

interface Values {
  domain: string;
  certificateType: string;
  certificate: string;
  privateKey: string;
  certificateChain: string;
  keySize: NumberField;
  passphrase: string;
}

const initial: Values = {
  domain: '',
  certificateType: UPLOAD_DEFAULTS.certificateType,
  certificate: '',
  privateKey: '',
  certificateChain: '',
  keySize: UPLOAD_DEFAULTS.keySize,
  passphrase: '',
};

const toRequest = (v: Values) => ({
  ...v,
  keySize: numberOrUndefined(v.keySize),
  passphrase: v.passphrase || undefined,
});

/** Reads a dropped PEM file (text) into a field; DER or PKCS#12 files are refused by the server's checks. */
function PemFile({ label, onText }: { label: string; onText: (t: string) => void }) {
  return (
    <FileButton accept=".pem,.crt,.cer,.key,.txt" onChange={(f) => void f?.text().then(onText)}>
      {(props) => (
        <Button size="xs" variant="default" {...props}>
          {label}
        </Button>
      )}
    </FileButton>
  );
}

/** Upload form (§3, §5): checked by the server (key match, chain, dates, domain). */
export function UploadForm({ onDone, onCancel }: { onDone: () => void; onCancel: () => void }) {
  const upload = useUploadCertificate();
  const [busy, setBusy] = useState(false);
  const form = useForm<Values>({
    initialValues: initial,
    validate: zodValidate(UploadCertificate, toRequest),
    validateInputOnChange: true,
  });
  const submit = async (v: Values) => {
    setBusy(true);
    try {
      const c = await upload.mutateAsync(toRequest(v) as never);
      notify({
        type: 'success',
        title: 'Certificate uploaded',
        message: `${c.domain}: ${c.issuer}, ${c.type}, valid until ${new Date(c.validTo).toLocaleDateString()}`,
      });
      form.reset();
      onDone();
    } catch (err) {
      if (err instanceof ApiError && Object.keys(err.fieldErrors).length) form.setErrors(err.fieldErrors);
      notify({ type: 'error', title: 'Upload refused', message: errorMessage(err) });
    } finally {
      setBusy(false);
    }
  };
  return (
    <Card withBorder padding="md" radius="md">
      <form onSubmit={form.onSubmit((v) => void submit(v))}>
        <Stack gap="sm">
          <Title order={2} size="h4">
            Upload Certificate
          </Title>
          <SimpleGrid cols={{ base: 1, sm: 3 }}>
            <TextInput
              label={uploadLabels.domain}
              required
              placeholder="example.com"
              {...form.getInputProps('domain')}
            />
            <Select
              label={uploadLabels.certificateType}
              required
              data={[...CERTIFICATE_TYPES]}
              allowDeselect={false}
              {...form.getInputProps('certificateType')}
            />
            <NumberInput
              label={uploadLabels.keySize}
              required
              min={1}
              description="Read from the certificate (an RSA key needs at least 1024 bits)"
              {...form.getInputProps('keySize')}
            />
          </SimpleGrid>
          <Textarea
            label={uploadLabels.certificate}
            required
            autosize
            minRows={4}
            maxRows={10}
            styles={{ input: { fontFamily: 'monospace' } }}
            placeholder="-----BEGIN CERTIFICATE-----"
            {...form.getInputProps('certificate')}
          />
          <Group gap="xs">
            <PemFile label="Certificate file…" onText={(t) => form.setFieldValue('certificate', t)} />
            <PemFile label="Key file…" onText={(t) => form.setFieldValue('privateKey', t)} />
            <PemFile label="Chain file…" onText={(t) => form.setFieldValue('certificateChain', t)} />
          </Group>
          <Textarea
            label={uploadLabels.privateKey}
            required
            autosize
            minRows={4}
            maxRows={10}
            styles={{ input: { fontFamily: 'monospace' } }}
            placeholder="-----BEGIN PRIVATE KEY-----"
            {...form.getInputProps('privateKey')}
          />
          <PasswordInput
            label={uploadLabels.passphrase}
            description="Only for an encrypted private key"
            {...form.getInputProps('passphrase')}
          />
          <Textarea
            label={uploadLabels.certificateChain}
            autosize
            minRows={3}
            maxRows={10}
            styles={{ input: { fontFamily: 'monospace' } }}
            {...form.getInputProps('certificateChain')}
          />
          <Group justify="flex-end">
            <Button
              variant="default"
              onClick={() => {
                form.reset();
                onCancel();
              }}
            >
              Cancel
            </Button>
            <Button type="submit" loading={busy} disabled={!form.isValid()}>
              Upload Certificate
            </Button>
          </Group>
        </Stack>
      </form>
    </Card>
  );
}
