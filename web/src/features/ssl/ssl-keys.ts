/** Query keys of the SSL area; invalidation goes through `sslKeys.all`. */
export const sslKeys = {
  all: ['ssl'] as const,
  dashboard: () => ['ssl', 'dashboard'] as const,
  list: (q: object) => ['ssl', 'certificates', q] as const,
  detail: (id: number) => ['ssl', 'certificate', id] as const,
  settings: () => ['ssl', 'settings'] as const,
  csrs: () => ['ssl', 'csrs'] as const,
  acmeAccounts: () => ['ssl', 'acme-accounts'] as const,
  servedHealth: () => ['ssl', 'served-health'] as const,
  tlsTraffic: () => ['ssl', 'tls-traffic'] as const,
};
