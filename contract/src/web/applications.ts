/**
 * Web applications (spec 3 §2.3, §3.1 "Web application", §4, §5, §9; issue 20): a real process
 * behind a virtual host, deployed from git into release folders, health-checked before Apache is
 * switched to it, with a release history and rollback.
 *
 * Split by responsibility: `applications/constants.ts` (types, PHP layouts, statuses, sections),
 * `applications/labels.ts` (labels and messages), `applications/input.ts` (field rules and the
 * input schema), `applications/application.ts` (what the API answers), `applications/releases.ts`
 * (releases and the deploy log), `applications/form.ts` (the form) and `applications/routes.ts`
 * (capabilities, requests, routes). Imports of this module do not change.
 */
export * from './applications/constants.ts';
export * from './applications/labels.ts';
export * from './applications/input.ts';
export * from './applications/application.ts';
export * from './applications/releases.ts';
export * from './applications/form.ts';
export * from './applications/routes.ts';
