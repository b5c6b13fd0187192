import type { Generated } from 'kysely';

/** An app password of a mailbox (migration 0019): IMAP/SMTP sign-in when MFA is on. */
export interface MailboxAppPasswordTable {
  id: Generated<number>;
  mailbox_id: number;
  name: string;
  lookup_key: string;
  /** {ARGON2ID}…, the scheme Dovecot verifies. */
  password_hash: string;
  created_at: string;
}

/** View: mailboxes whose account has an active second factor. */
export interface MailboxMfaView {
  mailbox_id: number;
}

export interface MailboxAccountTables {
  mailbox_app_passwords: MailboxAppPasswordTable;
  mailbox_mfa: MailboxMfaView;
}
