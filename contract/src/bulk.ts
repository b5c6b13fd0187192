/**
 * Bulk operations (issue 21): the catalogue of the area, split by entity — the operations and their
 * limits in `bulk/operations.ts`, configuration and preferences in `bulk/config.ts`, targets, plans,
 * runs and items in `bulk/plans.ts`, the routes in `bulk/routes.ts`.
 */
export * from './bulk/operations.ts';
export * from './bulk/config.ts';
export * from './bulk/plans.ts';
export * from './bulk/routes.ts';
