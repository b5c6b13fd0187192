/**
 * The Add Zone form (POST /api/dns/zones/add) of a primary zone whose name server lies outside
 * it, so the zone needs no address record of its own.
 */
export const zoneForm = (domain: string) => ({
  domain,
  zoneType: 'primary',
  primaryNs: 'ns1.example.net',
  adminEmail: 'hostmaster@example.net',
  serial: 1,
  refresh: 3600,
  retry: 1800,
  expire: 604800,
});

/** A zone whose name server is its own ns1.<domain>, with the glue address the form asks for then. */
export const ownNsZoneForm = (domain: string) => ({
  ...zoneForm(domain),
  primaryNs: `ns1.${domain}`,
  nsAddress: '192.0.2.53',
  adminEmail: 'hostmaster@example.org',
});
