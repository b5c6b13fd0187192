import type { Generated, GeneratedAlways } from 'kysely';

/** A mail domain: present while a mailbox or alias uses it, or while `explicit` is 1. */
export interface MailDomainTable {
  id: Generated<number>;
  domain: string;
  explicit: number;
  /** Kept in step by the mail services so totals never count a 1M-row table. */
  mailbox_count: number;
  alias_count: number;
  created_at: string;
}

export interface MailboxTable {
  id: Generated<number>;
  email: string;
  domain: string;
  /** `{ARGON2ID}$argon2id$…`, verified by Dovecot's SQL passdb. */
  password_hash: string;
  /** Bytes; 0 = unlimited. */
  quota: number;
  status: string;
  /** Relative to the mail root (/var/vmail): `<domain>/<local part>/`. */
  maildir: string;
  created_at: string;
  updated_at: string;
  /** The JSON export's object before `used` and after it (generated: migration 0021). */
  json_head: GeneratedAlways<string>;
  json_tail: GeneratedAlways<string>;
}

/** Keyed by its source address (no surrogate id: one B-tree fewer to keep up on imports). */
export interface MailAliasTable {
  source: string;
  domain: string;
  /** One address or a comma-separated list, as Postfix's virtual_alias_maps answers it. */
  destination: string;
  status: string;
  /** 1: a required address (postmaster@, abuse@) Mailroom keeps for the domain (migration 0004). */
  system: Generated<number>;
  created_at: string;
  updated_at: string;
}

/** Written by Dovecot's quota dictionary (dict-sql), read by Mailroom for "Used". */
export interface MailQuotaUsageTable {
  username: string;
  bytes: number;
  messages: number;
}

export interface MailSettingsTable {
  id: number;
  /** JSON of the contract's MailSettings. */
  settings: string;
  version: number;
  applied_at: string | null;
  check_ok: number | null;
  check_output: string | null;
  updated_at: string;
}

export interface DkimKeyTable {
  id: Generated<number>;
  domain: string;
  selector: string;
  private_key: string;
  public_key: string;
  created_at: string;
}

export interface MailTables {
  mail_domains: MailDomainTable;
  mailboxes: MailboxTable;
  mail_aliases: MailAliasTable;
  mail_quota_usage: MailQuotaUsageTable;
  mail_settings: MailSettingsTable;
  dkim_keys: DkimKeyTable;
}
