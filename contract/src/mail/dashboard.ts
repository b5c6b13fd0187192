import { DaemonStatus } from '../daemons.ts';
import { strictNumber } from '../validators.ts';
import { z } from 'zod';

// ---------- dashboard, logs, DKIM ----------

export const MailUsage = z.object({
  email: z.string(),
  quota: z.number(),
  used: z.number(),
  /** used / quota × 100, rounded (§9). */
  percent: z.number(),
});
export type MailUsage = z.infer<typeof MailUsage>;

/** rspamd is listed when the mail filter is wanted (spam filtering or DKIM on). */
export const MailService = z.object({
  name: z.enum(['postfix', 'dovecot', 'rspamd']),
  running: z.boolean(),
});

export const MailDashboard = z.object({
  totalMailboxes: z.number(),
  /** §9: quota above 0. */
  activeMailboxes: z.number(),
  totalAliases: z.number(),
  /** online when every listed service (Postfix, Dovecot, and the filter when wanted) is running. */
  serverStatus: z.enum(['online', 'offline']),
  services: z.array(MailService),
  /** Postfix, Dovecot and the filter (rspamd): each one's real state and why. */
  daemons: z.array(DaemonStatus),
  topUsage: z.array(MailUsage),
});
export type MailDashboard = z.infer<typeof MailDashboard>;

export const MailLogsQuery = z.object({
  lines: strictNumber(
    z
      .number({ error: 'lines must be a whole number' })
      .int('lines must be a whole number')
      .min(1, 'lines must be at least 1')
      .max(5000),
  ).optional(),
});

export const MailLogs = z.object({
  /** Where the lines came from (a file path or `journalctl`), null when nothing was readable. */
  source: z.string().nullable(),
  lines: z.array(z.string()),
  /** Set when no log is readable. */
  message: z.string().nullable(),
});
export type MailLogs = z.infer<typeof MailLogs>;

export const DkimRecord = z.object({
  domain: z.string(),
  selector: z.string(),
  /** Owner name of the TXT record: `${selector}._domainkey.${domain}`. */
  name: z.string(),
  /** TXT value: `v=DKIM1; k=rsa; p=…`. */
  txt: z.string(),
  createdAt: z.string(),
});
export type DkimRecord = z.infer<typeof DkimRecord>;
