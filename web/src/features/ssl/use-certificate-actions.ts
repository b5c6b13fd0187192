import type { SslCertificate } from '@mailroom/contract/ssl';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { errorMessage } from '../../api/client.ts';
import { notify } from '../../lib/notifications-store.ts';
import { deleteCertificate, downloadCertificate, renewCertificate } from './certificate-actions.ts';
import { sslKeys } from './ssl-keys.ts';

/** View (details modal), renew, delete and download for a certificate table, with invalidation. */
export function useCertificateActions() {
  const qc = useQueryClient();
  const [viewing, setViewing] = useState<{ id: number; domain: string } | null>(null);
  const refresh = () => qc.invalidateQueries({ queryKey: sslKeys.all });
  const fail = (title: string) => (err: unknown) =>
    notify({ type: 'error', title, message: errorMessage(err) });
  return {
    viewing,
    closeView: () => setViewing(null),
    view: (c: SslCertificate) => setViewing({ id: c.id, domain: c.domain }),
    renew: (id: number, domain: string) => {
      renewCertificate(id, domain).then(refresh, fail('Renewal failed'));
    },
    remove: (c: SslCertificate) => {
      deleteCertificate(c.id, c.domain).then((done) => (done ? refresh() : undefined), fail('Delete failed'));
    },
    download: (c: SslCertificate, format: 'pem' | 'zip') => {
      downloadCertificate(c.id, c.domain, format).catch(fail('Download failed'));
    },
  };
}
