import type { SslCertificate } from '@mailroom/contract/ssl';
import { Alert, Anchor, Badge, Button, Card, Group, Loader, Select, Stack, Text, Title } from '@mantine/core';
import { IconCheck } from '@tabler/icons-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { ApiError, errorMessage } from '../../../api/client.ts';
import {
  nameCovers,
  useCertificateChoices,
  useCertificateDetail,
  useMailCertificate,
  useSetMailCertificate,
} from '../use-mail-certificate.ts';

const AUTO = 'auto';
// Red text readable on the light and the dark card.
const WARN_TEXT = 'light-dark(var(--mantine-color-red-9), var(--mantine-color-red-4))';
const STATUS_COLOR: Record<SslCertificate['status'], string> = {
  valid: 'teal.9',
  expiring: 'orange.9',
  expired: 'red.9',
};

/** The first eight bytes of a SHA-256 fingerprint: enough to tell certificates apart. */
export function shortFingerprint(fp: string): string {
  const bytes = fp.includes(':') ? fp.split(':') : (fp.match(/.{1,2}/g) ?? []);
  return bytes.slice(0, 8).join(':').toUpperCase() + (bytes.length > 8 ? '…' : '');
}

const day = (iso: string) => new Date(iso).toISOString().slice(0, 10);

function optionLabel(c: SslCertificate): string {
  return `${c.domain} (expires ${day(c.validTo)}, ${shortFingerprint(c.fingerprint)})`;
}

/** The certificate Postfix and Dovecot serve, and the choice of another one covering the host. */
export function MailCertificateCard() {
  const setCert = useSetMailCertificate();
  const state = useMailCertificate();
  const choices = useCertificateChoices();
  const served = useCertificateDetail(state.data?.servedId ?? null);
  const [picked, setPicked] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);

  if (state.isPending) return <Loader size="sm" aria-label="Loading the mail certificate" />;
  if (state.isError)
    return (
      <Alert color="red" variant="light" title="Failed to load the mail certificate" role="alert">
        {errorMessage(state.error)}
      </Alert>
    );
  const { hostname, certificateId, servedId, fallback } = state.data;
  const current = certificateId === null ? AUTO : String(certificateId);
  const value = picked ?? current;
  const usable = (choices.data ?? []).filter(
    (c) =>
      (c.status !== 'expired' && c.subjectAltNames.concat(c.domain).some((n) => nameCovers(n, hostname))) ||
      c.id === certificateId,
  );
  const data = [
    { value: AUTO, label: 'Automatic (the hosted name’s certificate)' },
    ...usable.map((c) => ({ value: String(c.id), label: optionLabel(c) })),
  ];
  const failure = setCert.error;
  const output =
    failure instanceof ApiError && failure.details && typeof failure.details === 'object'
      ? (failure.details as { output?: unknown }).output
      : undefined;

  const save = async () => {
    setSaved(false);
    try {
      await setCert.mutateAsync(value === AUTO ? null : Number(value));
      setPicked(null);
      setSaved(true);
    } catch {
      // Shown below from setCert.error.
    }
  };

  return (
    <Card withBorder padding="lg" mt="md" component="section" aria-labelledby="mail-certificate-title">
      <Stack gap="sm">
        <Title order={3} size="h4" id="mail-certificate-title">
          Certificate
        </Title>
        <Text size="sm" c="dimmed">
          The TLS certificate Postfix and Dovecot serve for {hostname}.
        </Text>
        <div data-testid="served-certificate">
          {servedId === null ? (
            <Alert color="orange" variant="light" title="No certificate covers this host name">
              <Text size="sm" data-testid="fallback-certificate">
                {fallback
                  ? `The mail server serves Mailroom's self-signed fallback certificate for ${fallback.hostname} (SHA-256 ${shortFingerprint(fallback.fingerprint)}, expires ${day(fallback.validTo)}). Mail clients do not trust it.`
                  : "The mail server serves Mailroom's self-signed fallback certificate for this host name once TLS is on. Mail clients do not trust it."}{' '}
                <Anchor component={Link} to="/ssl/certificates">
                  Add a certificate for {hostname}
                </Anchor>
              </Text>
            </Alert>
          ) : served.data ? (
            <Stack gap={4}>
              <Group gap="xs" wrap="wrap">
                <Text size="sm" fw={600}>
                  Served now: {served.data.domain}
                </Text>
                <Badge color={STATUS_COLOR[served.data.status]} variant="filled">
                  {served.data.status}
                </Badge>
                <Badge color={certificateId === null ? 'gray.7' : 'blue.9'} variant="filled">
                  {certificateId === null ? 'automatic' : 'chosen'}
                </Badge>
              </Group>
              <Text size="sm">
                Expires {day(served.data.validTo)} ({served.data.daysUntilExpiry} days left)
              </Text>
              <Text size="xs" ff="monospace" style={{ wordBreak: 'break-all' }}>
                SHA-256 {shortFingerprint(served.data.fingerprint)}
              </Text>
            </Stack>
          ) : served.isError ? (
            <Text size="sm" c={WARN_TEXT}>
              {errorMessage(served.error)}
            </Text>
          ) : (
            <Loader size="xs" aria-label="Loading the served certificate" />
          )}
        </div>
        <Select
          label="Certificate"
          description={
            usable.length === 0
              ? 'No unexpired certificate covers this host name yet.'
              : 'Automatic serves the unexpired certificate covering the host name that expires last; with none, Mailroom’s self-signed fallback.'
          }
          data={data}
          value={value}
          onChange={(v) => {
            setPicked(v);
            setSaved(false);
          }}
          allowDeselect={false}
          disabled={choices.isPending}
        />
        {choices.isError && (
          <Text size="sm" c={WARN_TEXT}>
            {errorMessage(choices.error)}
          </Text>
        )}
        {saved && (
          <Alert color="green" variant="light" icon={<IconCheck aria-hidden />} role="status">
            Mail server certificate saved and applied.
          </Alert>
        )}
        {failure && (
          <Alert color="red" variant="light" title="Failed to save the mail certificate" role="alert">
            <Text size="sm">{errorMessage(failure)}</Text>
            {typeof output === 'string' && (
              <Text
                size="xs"
                ff="monospace"
                mt="xs"
                style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}
              >
                {output}
              </Text>
            )}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button onClick={() => void save()} loading={setCert.isPending} disabled={value === current}>
            Save Certificate
          </Button>
        </Group>
      </Stack>
    </Card>
  );
}
