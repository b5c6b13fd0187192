/**
 * Mail (spec 1): the contract of the area. Schemas live by entity in `mail/*.ts`; this index keeps `@mailroom/contract/mail` whole.
 */
export * from './mail/constants.ts';
export * from './mail/fields.ts';
export * from './mail/mailboxes.ts';
export * from './mail/aliases.ts';
export * from './mail/domains.ts';
export * from './mail/settings.ts';
export * from './mail/dashboard.ts';
export * from './mail/routes.ts';
