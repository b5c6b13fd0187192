/**
 * SSL management: the catalogue of the area, split by entity — constants in `ssl/constants.ts`,
 * certificates in `ssl/certificates.ts`, the SSL settings in `ssl/settings.ts`, the routes in
 * `ssl/routes.ts`. Imports of `@mailroom/contract/ssl` do not change.
 */
export * from './ssl/constants.ts';
export * from './ssl/certificates.ts';
export * from './ssl/settings.ts';
export * from './ssl/routes.ts';
