import { domainField } from '../validators.ts';
import { z } from 'zod';

// ---------- domains ----------

export const MailDomain = z.object({
  domain: z.string(),
  mailboxes: z.number(),
  aliases: z.number(),
  /** Added explicitly (kept when unused); otherwise it exists while a mailbox or alias uses it. */
  explicit: z.boolean(),
  /** Whether a DKIM key exists for the domain (made in the background after the domain came). */
  dkim: z.boolean(),
  /** The DNS zone hosted here that holds the domain's mail records, or null (published elsewhere). */
  dnsZone: z.string().nullable(),
  /** Has a catch-all alias (`@domain`). */
  catchAll: z.boolean(),
});
export type MailDomain = z.infer<typeof MailDomain>;

export const AddDomainRequest = z.object({ domain: domainField('Domain').transform((v) => v.toLowerCase()) });
export type AddDomainRequest = z.input<typeof AddDomainRequest>;
