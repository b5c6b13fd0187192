import { SELF_SIGNED_WARNING, type SslCertificate } from '@mailroom/contract/ssl';
import { Stack, Text } from '@mantine/core';
import { StatusBadge } from '../../../components/status-badge.tsx';

/**
 * A certificate's status: a self-signed one is never shown as plainly "valid" (clients do not
 * trust it), it is "self-signed" with the warning beside it (issue 22 item 10).
 */
export function CertificateStatus({ c }: { c: Pick<SslCertificate, 'status' | 'selfSigned'> }) {
  if (!c.selfSigned) return <StatusBadge status={c.status} />;
  return (
    <Stack gap={2} align="flex-start">
      <StatusBadge
        status={c.status === 'valid' ? 'warning' : c.status}
        label={c.status === 'valid' ? 'self-signed' : `${c.status}, self-signed`}
      />
      <Text size="xs" c="dimmed" data-testid="self-signed-warning">
        {SELF_SIGNED_WARNING}
      </Text>
    </Stack>
  );
}
