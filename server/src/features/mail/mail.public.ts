/** What the other features may call of the mail area (the owner of `mail_domains`, `mailboxes`, `mail_aliases`). */
export { countRows as countMailRows } from './list-totals.repository.ts';
