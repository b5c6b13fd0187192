import type { AliasListQuery, MailboxListQuery } from '@mailroom/contract/mail';

/** The one query-key factory of the mail area; invalidate only through it. */
export const mailKeys = {
  all: ['mail'] as const,
  dashboard: () => ['mail', 'dashboard'] as const,
  activity: () => ['mail', 'activity'] as const,
  logs: () => ['mail', 'logs'] as const,
  mailboxes: () => ['mail', 'mailboxes'] as const,
  mailboxList: (q: MailboxListQuery) => ['mail', 'mailboxes', q] as const,
  /** A mailbox's app passwords (administrators' view). */
  appPasswords: (email: string) => ['mail', 'app-passwords', email] as const,
  aliases: () => ['mail', 'aliases'] as const,
  aliasList: (q: AliasListQuery) => ['mail', 'aliases', q] as const,
  settings: () => ['mail', 'settings'] as const,
  dkim: () => ['mail', 'dkim'] as const,
  domains: () => ['mail', 'domains'] as const,
  certificates: () => ['mail', 'certificate'] as const,
  certificate: () => ['mail', 'certificate', 'state'] as const,
  certificateDetail: (id: number) => ['mail', 'certificate', 'detail', id] as const,
  certificateChoices: () => ['mail', 'certificate', 'choices'] as const,
};
