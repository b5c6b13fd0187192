import type { SslCertificate } from '@mailroom/contract/ssl';
import { useState } from 'react';
import { errorMessage } from '../../api/client.ts';
import { notify } from '../../lib/notifications-store.ts';
import { useDeleteCertificate } from './use-delete-certificate.ts';
import { useDownloadCertificate } from './use-download-certificate.ts';
import { useRenewCertificate } from './use-renew-certificate.ts';

/** View (details modal), renew, delete and download for a certificate table, with invalidation. */
export function useCertificateActions() {
  const [viewing, setViewing] = useState<{ id: number; domain: string } | null>(null);
  const renew = useRenewCertificate();
  const remove = useDeleteCertificate();
  const download = useDownloadCertificate();
  const fail = (title: string) => (err: unknown) =>
    notify({ type: 'error', title, message: errorMessage(err) });
  return {
    viewing,
    closeView: () => setViewing(null),
    view: (c: SslCertificate) => setViewing({ id: c.id, domain: c.domain }),
    renew: (id: number, domain: string) => {
      renew.mutateAsync({ id, domain }).catch(fail('Renewal failed'));
    },
    remove: (c: SslCertificate) => {
      remove.mutateAsync({ id: c.id, domain: c.domain }).catch(fail('Delete failed'));
    },
    download: (c: SslCertificate, format: 'pem' | 'zip') => {
      download.mutateAsync({ id: c.id, domain: c.domain, format }).catch(fail('Download failed'));
    },
  };
}
