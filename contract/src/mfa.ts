/**
 * Multi-factor authentication (spec 3): the contract of the area. Schemas live by entity in `mfa/*.ts`; this index keeps `@mailroom/contract/mfa` whole.
 */
export * from './mfa/constants.ts';
export * from './mfa/account.ts';
export * from './mfa/users.ts';
export * from './mfa/policy.ts';
export * from './mfa/dashboard.ts';
export * from './mfa/recovery.ts';
export * from './mfa/account-routes.ts';
export * from './mfa/routes.ts';
