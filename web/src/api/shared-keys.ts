/**
 * Query keys one area reads from another (a feature never imports another feature): the mail
 * domains and DNS zones offered as choices on the MFA screens.
 */
export const sharedKeys = {
  mailDomainOptions: () => ['mail', 'domains', 'options'] as const,
  dnsZoneOptions: () => ['dns', 'zones', 'options'] as const,
};
