const ACTIONS: Record<string, string> = {
  'mail.mailbox.create': 'Mailbox created',
  'mail.mailbox.remove': 'Mailbox deleted',
  'mail.mailbox.delete': 'Mailbox deleted (bulk operation)',
  'mail.mailbox.password': 'Mailbox password changed',
  'mail.mailbox.quota': 'Mailbox quota changed',
  'mail.mailbox.suspend': 'Mailbox suspended',
  'mail.mailbox.resume': 'Mailbox resumed',
  'mail.mailbox.purge': 'Mailbox mail purged',
  'mail.mailbox.app_password.revoke': 'App password revoked',
  'mail.alias.create': 'Alias created',
  'mail.alias.remove': 'Alias deleted',
  'mail.alias.delete': 'Alias deleted (bulk operation)',
  'mail.alias.update': 'Alias updated',
  'mail.alias.import': 'Aliases imported',
  'mail.domain.add': 'Mail domain added',
  'mail.domain.remove': 'Mail domain removed',
  'mail.settings.save': 'Mail settings saved',
};

/** A readable title for a mail audit action; unknown actions show as they are recorded. */
export function describeMailActivity(action: string, outcome: 'success' | 'failure'): string {
  const title = ACTIONS[action] ?? action;
  return outcome === 'failure' ? `${title} (failed)` : title;
}
