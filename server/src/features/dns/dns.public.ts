/** What the other features may call of the DNS area (the owner of `dns_zones` and `dns_records`). */
export { hostedZoneNames } from './hosted-zone.repository.ts';
export { countZones } from './zone.repository.ts';
export { countRecords } from './record.repository.ts';
