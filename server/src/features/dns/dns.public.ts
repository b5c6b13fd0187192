/** What the other features may call of the DNS area (the owner of `dns_zones` and `dns_records`). */
export { hostedZoneNames } from './zones/hosted-zone.repository.ts';
export { countZones } from './zones/zone.repository.ts';
export { countRecords } from './records/record.repository.ts';
