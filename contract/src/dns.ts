/**
 * DNS (spec 2): the contract of the area. Schemas live by entity in `dns/*.ts`; this index keeps `@mailroom/contract/dns` whole.
 */
export * from './dns/constants.ts';
export * from './dns/value-checks.ts';
export * from './dns/entities.ts';
export * from './dns/zones.ts';
export * from './dns/records.ts';
export * from './dns/settings.ts';
export * from './dns/status.ts';
export * from './dns/routes.ts';
