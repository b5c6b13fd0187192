/** What the other features may call of the mail area (the owner of `mail_domains`, `mailboxes`, `mail_aliases`). */
export { storedHostName as mailHostName } from './settings/mail-settings.repository.ts';
export { countRows as countMailRows } from './list-totals.repository.ts';
