import { Button, Card, Group, Stack, Text, Textarea, Title } from '@mantine/core';
import { useState } from 'react';
import { ApiError, errorMessage } from '../../../api/client.ts';
import { CopyButton } from '../../../components/copy-button.tsx';
import { downloadText } from '../../../lib/csv.ts';
import { notify } from '../../../lib/notifications-store.ts';
import { useCompleteCsr } from '../use-complete-csr.ts';

export interface CsrResultProps {
  csr: { id: number; domain: string; csr: string; privateKey: string };
  onDone: () => void;
}

/** The CSR and its key to download for an outside CA, then the signed certificate to upload. */
export function CsrResult({ csr, onDone }: CsrResultProps) {
  const completeCsr = useCompleteCsr();
  const [certificate, setCertificate] = useState('');
  const [chain, setChain] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async () => {
    setBusy(true);
    setError(null);
    try {
      const c = await completeCsr.mutateAsync({ id: csr.id, certificate, certificateChain: chain });
      notify({ type: 'success', title: 'Certificate installed', message: `${c.domain} (${c.issuer})` });
      onDone();
    } catch (err) {
      setError(
        err instanceof ApiError
          ? (Object.values(err.fieldErrors)[0] ?? errorMessage(err))
          : errorMessage(err),
      );
    } finally {
      setBusy(false);
    }
  };
  return (
    <Card withBorder padding="md" radius="md" data-testid="csr-result">
      <Stack gap="sm">
        <Title order={2} size="h4">
          Certificate Signing Request for {csr.domain}
        </Title>
        <Text size="sm" c="dimmed">
          Send the request to your certificate authority and keep the private key. Mailroom keeps the key too
          (encrypted) and matches the signed certificate to it.
        </Text>
        <Textarea
          label="CSR"
          value={csr.csr}
          readOnly
          autosize
          minRows={4}
          maxRows={8}
          styles={{ input: { fontFamily: 'monospace' } }}
        />
        <Group gap="xs">
          <Button
            size="xs"
            variant="default"
            onClick={() => downloadText(`${csr.domain}.csr`, csr.csr, 'application/pkcs10')}
          >
            Download CSR
          </Button>
          <Button
            size="xs"
            variant="default"
            onClick={() => downloadText(`${csr.domain}.key`, csr.privateKey, 'application/x-pem-file')}
          >
            Download Private Key
          </Button>
          <CopyButton value={csr.csr} />
        </Group>
        <Textarea
          label="Signed Certificate"
          placeholder="-----BEGIN CERTIFICATE-----"
          value={certificate}
          onChange={(e) => setCertificate(e.currentTarget.value)}
          autosize
          minRows={4}
          styles={{ input: { fontFamily: 'monospace' } }}
          error={error}
        />
        <Textarea
          label="Certificate Chain"
          value={chain}
          onChange={(e) => setChain(e.currentTarget.value)}
          autosize
          minRows={3}
          styles={{ input: { fontFamily: 'monospace' } }}
        />
        <Group justify="flex-end">
          <Button onClick={() => void submit()} loading={busy} disabled={!certificate.trim()}>
            Install Signed Certificate
          </Button>
        </Group>
      </Stack>
    </Card>
  );
}
