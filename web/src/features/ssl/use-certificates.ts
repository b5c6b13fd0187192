import { type CertificateStatus, sslRoutes } from '@mailroom/contract/ssl';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { apiCallWithTotal } from '../../api/client.ts';
import { type PagePosition, pageQuery } from '../../lib/cursor-pages.ts';
import { sslKeys } from './ssl-keys.ts';

export interface CertificateFilter {
  q: string;
  status: CertificateStatus | '';
  issuer: string;
}

export const PAGE_SIZE = 50;

/**
 * One page of certificates, filtered and searched by the server; stepping to a neighbour page
 * follows the server's cursor (keyset), a jump reads by offset.
 */
export function useCertificates(f: CertificateFilter, pos: PagePosition, sort?: string) {
  const query = {
    ...(sort ? { sort } : {}),
    ...(f.q ? { q: f.q } : {}),
    ...(f.status ? { status: f.status } : {}),
    ...(f.issuer ? { issuer: f.issuer } : {}),
    ...pageQuery(pos, PAGE_SIZE),
  };
  return useQuery({
    queryKey: sslKeys.list(query),
    queryFn: () => apiCallWithTotal(sslRoutes.list, { query }),
    placeholderData: keepPreviousData,
  });
}
