import { sslRoutes } from '@mailroom/contract/ssl';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiCall } from '../../api/client.ts';
import { applyKeys } from '../../components/apply-outcome-alert.tsx';
import { mailKeys } from './mail-keys.ts';

/** The chosen certificate (null: automatic), the one served and the mail host name. */
export function useMailCertificate() {
  return useQuery({
    queryKey: mailKeys.certificate(),
    queryFn: () => apiCall(sslRoutes.getMailCertificate),
  });
}

/** One certificate's details (the served one: it may not cover the host name when chosen by hand). */
export function useCertificateDetail(id: number | null) {
  return useQuery({
    queryKey: mailKeys.certificateDetail(id ?? 0),
    queryFn: () => apiCall(sslRoutes.get, { params: { id: id ?? 0 } }),
    enabled: id !== null,
  });
}

/** Every stored certificate (the picker keeps the unexpired ones covering the host name). */
export function useCertificateChoices() {
  return useQuery({
    queryKey: mailKeys.certificateChoices(),
    queryFn: () => apiCall(sslRoutes.list, { query: { limit: 1000 } }),
  });
}

/** Saves the choice; the server applies it to Postfix and Dovecot before answering. */
export function useSetMailCertificate() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (certificateId: number | null) =>
      apiCall(sslRoutes.setMailCertificate, { body: { certificateId } }),
    onSuccess: (state) => qc.setQueryData(mailKeys.certificate(), state),
    // The apply outcome (the page's "Saved, but not live" alert) is read again once it is known.
    onSettled: () =>
      Promise.all([
        qc.invalidateQueries({ queryKey: mailKeys.certificates() }),
        qc.invalidateQueries({ queryKey: applyKeys.all() }),
      ]),
  });
}

/** Whether a certificate name (maybe `*.example.com`) covers the host name. */
export function nameCovers(name: string, host: string): boolean {
  const n = name.toLowerCase();
  const h = host.toLowerCase();
  if (n === h) return true;
  if (!n.startsWith('*.')) return false;
  const dot = h.indexOf('.');
  return dot > 0 && h.slice(dot + 1) === n.slice(2);
}
