import { vhostLabels as L, type VhostFormValues } from '@mailroom/contract/web';
import { Anchor, Select, Text } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { Link } from 'react-router';
import { errorMessage } from '../../../api/client.ts';
import danger from '../../../components/danger-text.module.css';
import { certificateChoices } from '../certificate-choices.ts';
import { useWebCertificates } from '../use-web-certificates.ts';

/** The value that means "no certificate from the SSL area: the file paths below". */
const PATHS = 'paths';

/**
 * Picks a certificate from the SSL area for the host's names: those that cover every served name
 * and have not expired can be chosen, the others are listed disabled with the reason. "Certificate
 * files" leaves the choice to the spec's path fields.
 */
export function CertificatePicker({
  form,
  names,
  certificateId: id,
  reason,
}: {
  form: UseFormReturnType<VhostFormValues>;
  /** The names the host serves (server name, domain, aliases) as punycode. */
  names: string[];
  certificateId: number | null;
  /** Why the field is disabled on this server (null: usable). */
  reason: string | null;
}) {
  const certs = useWebCertificates(true);
  const choices = certificateChoices(certs.data ?? [], names);
  const data = [
    { value: PATHS, label: 'Certificate files (paths below)' },
    ...choices.map((c) => ({ value: c.value, label: c.label, disabled: c.reason !== null })),
  ];
  const props = form.getInputProps('sslCertificateId');
  const help = reason ? (
    <Text span size="xs" className={danger.danger}>
      {reason}
    </Text>
  ) : certs.isError ? (
    <Text span size="xs" className={danger.danger}>
      {`The SSL area's certificates could not be read: ${errorMessage(certs.error)}`}
    </Text>
  ) : choices.length === 0 && !certs.isPending ? (
    <>
      No certificates yet:{' '}
      <Anchor component={Link} to="/ssl/certificates" size="xs">
        add one in SSL Certificates
      </Anchor>
    </>
  ) : (
    'A certificate from the SSL area that covers the server name, the domain and every alias'
  );
  return (
    <Select
      label={L.sslCertificateId}
      description={help}
      data={data}
      value={id === null ? PATHS : String(id)}
      onChange={(v) => form.setFieldValue('sslCertificateId', v === null || v === PATHS ? null : Number(v))}
      onBlur={props.onBlur as () => void}
      error={props.error as string | undefined}
      allowDeselect={false}
      searchable
      disabled={reason !== null}
      nothingFoundMessage="No certificate matches"
    />
  );
}
