/**
 * Mail changes that cannot move what DNS publishes for the mail domains (MX, SPF, DKIM, DMARC come
 * from the settings, the set of mail domains and their DKIM keys). A create that brings a new
 * domain republishes on its own once the domain's DKIM key exists (the routes' scheduleDkim), so
 * creates need no second publication either. Republishing every mail zone after each of these cost
 * an alias add ~12–40 ms of a ~1 ms request (bench: alias add).
 */
export const DNS_NEUTRAL_MAIL_ACTIONS: ReadonlySet<string> = new Set([
  'mail.alias.create',
  'mail.alias.update',
  'mail.mailbox.create',
  'mail.mailbox.password',
  'mail.mailbox.quota',
  'mail.mailbox.suspend',
  'mail.mailbox.resume',
  'mail.mailbox.purge',
]);
