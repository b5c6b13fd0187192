/** Forms speak MB, the API speaks bytes: 1 MB = 1024² bytes; a quota of 0 means unlimited. */
export const MB = 1024 * 1024;
export const mbToBytes = (mb: number): number => Math.round(mb * MB);
export const bytesToMb = (bytes: number): number => bytes / MB;

/** Largest quota the API accepts (1 PiB), so byte counts stay exact in JSON numbers. */
export const MAX_QUOTA_BYTES = 1024 ** 5;

export const MAILBOX_STATUSES = ['active', 'suspended'] as const;
export const ALIAS_STATUSES = ['active', 'disabled'] as const;

/** Default and largest page of a mail list; 100k mailboxes never travel in one answer. */
export const MAIL_LIST_DEFAULT_LIMIT = 100;
export const MAIL_LIST_MAX_LIMIT = 1000;

/** Dashboard: the top 5 mailboxes by usage percent (§9); the usage bar turns red above 80 %. */
export const TOP_USAGE_COUNT = 5;
export const USAGE_WARNING_PERCENT = 80;

export const mailMessages = {
  mailboxExists: (email: string) => `A mailbox ${email} already exists`,
  mailboxNotFound: (email: string) => `Mailbox ${email} was not found`,
  aliasExists: (source: string) => `An alias for ${source} already exists`,
  aliasNotFound: (source: string) => `Alias ${source} was not found`,
  aliasRequired: (source: string) =>
    `${source} is a required address (RFC 2142, DMARC reports): change its destination instead`,
  aliasIsMailbox: (source: string) => `${source} is a mailbox; an alias cannot use the same address`,
  mailboxIsAlias: (email: string) => `${email} is an alias source; a mailbox cannot use the same address`,
  importRaced: (address: string) =>
    `${address} was taken while the import ran; nothing was imported. Run the import again.`,
  aliasLoop: (chain: string[]) => `This alias would create a loop: ${chain.join(' → ')}`,
  aliasSelf: 'Destination Email must differ from Source Email',
  quotaAboveMax: (maxMb: number) => `Quota must be at most ${maxMb} MB (Max Quota)`,
  defaultAboveMax: 'Default Quota must not exceed Max Quota',
  mxRequired: 'At least one MX record is required',
  staleSettings: 'The mail settings were changed by someone else. Reload them and try again.',
  domainInUse: (domain: string) => `Domain ${domain} is still used by mailboxes or aliases`,
  domainExists: (domain: string) => `Domain ${domain} already exists`,
  domainNotFound: (domain: string) => `Domain ${domain} was not found`,
  noLogs: 'No mail log is readable on this server (looked for /var/log/mail.log and the systemd journal).',
  importMissingColumns: 'The CSV needs a header row with the columns source and destination',
  mailboxImportMissingColumns: 'The CSV needs a header row with the columns email and password',
  domainUnknown: (domain: string) =>
    `${domain} is not a mail domain yet: add it under Mail → Domains, or choose to create it`,
  catchAllExists: (domain: string) => `A catch-all alias for @${domain} already exists`,
  settingsSaved: 'Mail settings saved successfully!',
} as const;
