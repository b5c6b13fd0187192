/**
 * Virtual hosts (spec 3 §2.2, §3.1 "Virtual host", §4, §9): split by responsibility —
 * `vhosts/labels.ts` (statuses, PHP versions, sections, labels and messages), `vhosts/input.ts`
 * (field rules, the input schema, PHP limits, defaults), `vhosts/virtual-host.ts` (what the API
 * answers), `vhosts/form.ts` (the form) and `vhosts/routes.ts` (requests and routes). Imports of
 * this module do not change.
 */
export * from './vhosts/labels.ts';
export * from './vhosts/input.ts';
export * from './vhosts/virtual-host.ts';
export * from './vhosts/form.ts';
export * from './vhosts/routes.ts';
