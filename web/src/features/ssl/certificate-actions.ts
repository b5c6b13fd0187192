import { sslFileRoutes, sslRoutes } from '@mailroom/contract/ssl';
import { ApiError, apiCall, apiDownload } from '../../api/client.ts';
import { followJob } from '../../api/follow-job.ts';
import { confirmAction } from '../../components/confirm-action.ts';
import { downloadBlob, todayStamp } from '../../lib/csv.ts';
import { notify } from '../../lib/notifications-store.ts';

/** Renews one certificate (a job) and says how it ended. */
export async function renewCertificate(id: number, domain: string): Promise<void> {
  const accepted = await apiCall(sslRoutes.renew, { params: { id } });
  notify({ type: 'info', title: 'Renewal started', message: `Renewing ${domain} (job ${accepted.jobId})` });
  const job = await followJob(accepted.jobId, () => undefined);
  if (job.state === 'succeeded') notify({ type: 'success', title: 'Certificate renewed', message: domain });
  else notify({ type: 'error', title: 'Renewal failed', message: job.message ?? job.state });
}

/** Deletes; a certificate in use asks again and is deleted only when confirmed. */
export async function deleteCertificate(id: number, domain: string): Promise<boolean> {
  if (
    !(await confirmAction({
      title: 'Delete certificate',
      message: `Delete the certificate for ${domain}?`,
      confirmLabel: 'Delete',
      danger: true,
    }))
  )
    return false;
  try {
    await apiCall(sslRoutes.remove, { params: { id }, query: {} });
  } catch (err) {
    if (!(err instanceof ApiError) || err.status !== 409) throw err;
    if (
      !(await confirmAction({
        title: 'Certificate in use',
        message: err.serverMessage ?? err.message,
        confirmLabel: 'Delete anyway',
        danger: true,
      }))
    )
      return false;
    await apiCall(sslRoutes.remove, { params: { id }, query: { confirm: 'true' } });
  }
  notify({ type: 'success', title: 'Certificate deleted', message: domain });
  return true;
}

export async function downloadCertificate(id: number, domain: string, format: 'pem' | 'zip'): Promise<void> {
  const blob = await apiDownload(sslFileRoutes.download, { params: { id }, query: { format } });
  downloadBlob(`${domain.replace(/^\*\./, 'wildcard.')}.${format}`, blob);
}

export async function exportCertificates(): Promise<void> {
  const blob = await apiDownload(sslFileRoutes.exportCsv, {});
  downloadBlob(`ssl-certificates-${todayStamp()}.csv`, blob);
}
