import { Button, Group, Loader, Modal, SimpleGrid, Stack, Text } from '@mantine/core';
import { CertificateStatus } from './certificate-status.tsx';
import { useCertificate } from '../use-certificate.ts';
import { DaysLeft } from './days-left.tsx';

export interface CertificateDetailsModalProps {
  id: number | null;
  domain: string;
  onClose: () => void;
  onRenew: (id: number, domain: string) => void;
}

function Field({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div>
      <Text size="xs" c="dimmed" fw={700} tt="uppercase">
        {label}
      </Text>
      <Text size="sm" component="div" style={{ overflowWrap: 'anywhere' }}>
        {children}
      </Text>
    </div>
  );
}

/** "Certificate Details: {domain}" with the parsed fields, Close and Renew Certificate. */
export function CertificateDetailsModal({ id, domain, onClose, onRenew }: CertificateDetailsModalProps) {
  const q = useCertificate(id);
  const c = q.data;
  return (
    <Modal opened={id !== null} onClose={onClose} title={`Certificate Details: ${domain}`} size="lg">
      {q.isPending && <Loader aria-label="Loading certificate" />}
      {q.error && <Text c="red.8">{q.error.message}</Text>}
      {c && (
        <Stack gap="md">
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
            <Field label="Domain">{c.domain}</Field>
            <Field label="Status">
              <CertificateStatus c={c} />
            </Field>
            <Field label="Issuer">{c.issuer}</Field>
            <Field label="Type">{c.type}</Field>
            <Field label="Key Size">{`${c.keySize} bits (${c.keyAlgorithm})`}</Field>
            <Field label="Signature Algorithm">{c.signatureAlgorithm}</Field>
            <Field label="Valid From">{new Date(c.validFrom).toLocaleString()}</Field>
            <Field label="Valid To">{new Date(c.validTo).toLocaleString()}</Field>
            <Field label="Days Until Expiry">
              <DaysLeft days={c.daysUntilExpiry} />
            </Field>
            <Field label="Serial Number">{c.serialNumber}</Field>
            <Field label="Subject Alternative Names">{c.subjectAltNames.join(', ')}</Field>
            <Field label="In Use">{c.inUse.length ? c.inUse.join(', ') : 'No'}</Field>
          </SimpleGrid>
          <Field label="Fingerprint (SHA-256)">
            <Text size="xs" ff="monospace">
              {c.fingerprint}
            </Text>
          </Field>
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Close
            </Button>
            <Button onClick={() => onRenew(c.id, c.domain)}>Renew Certificate</Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
