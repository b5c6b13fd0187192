import { z } from 'zod';

/**
 * What the mail area tells the DNS area about each mail domain, so DNS can publish the derived
 * "system records" (MX, SPF, DKIM, DMARC, autoconfig/autodiscover). The mail feature produces it
 * (server/src/features/mail/domains/mail-dns-facts.service.ts); app.ts hands the producer to the DNS feature.
 */
export const MailDnsFacts = z.object({
  domain: z.string(),
  /** MX targets from the mail settings (priority + host, fully qualified, no trailing dot). */
  mx: z.array(z.object({ priority: z.number().int(), host: z.string() })),
  /** The mail server's host name (mail settings `hostname`), for autoconfig/autodiscover targets. */
  mailHost: z.string(),
  spf: z.boolean(),
  dmarc: z.boolean(),
  /** Present when DKIM is on and a key exists: TXT at `${selector}._domainkey.${domain}`. */
  dkim: z.object({ selector: z.string(), txt: z.string() }).nullable(),
});
export type MailDnsFacts = z.infer<typeof MailDnsFacts>;

export type MailDnsFactsProvider = () => Promise<MailDnsFacts[]>;
