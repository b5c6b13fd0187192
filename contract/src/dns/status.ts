import { DaemonStatus } from '../daemons.ts';
import { queryInt } from '../validators.ts';
import { Zone } from './entities.ts';
import { z } from 'zod';

// ---------------------------------------------------------------------------------------------
// Status and dashboard

export const DnsCheckStatus = z.object({
  /** null until the first render. */
  ok: z.boolean().nullable(),
  /** When the configuration was last rendered and checked (ISO), and when it last passed. */
  checkedAt: z.string().nullable(),
  appliedAt: z.string().nullable(),
  message: z.string(),
  /** The checker's words when it rejected a file. */
  output: z.string(),
  /** Whether the name server was reloaded (system mode only) and what rndc said. */
  reload: z.object({ attempted: z.boolean(), ok: z.boolean().nullable(), output: z.string() }),
  /** Settings BIND cannot honour as given, or listeners left out (e.g. DoT on but no certificate). */
  notes: z.array(z.string()),
  /** Name servers and the server host name that are not public host names (NS targets). */
  warnings: z.array(z.string()),
});
export type DnsCheckStatus = z.infer<typeof DnsCheckStatus>;

export const DnsDashboard = z.object({
  totalZones: z.number().int(),
  totalRecords: z.number().int(),
  serverStatus: z.enum(['online', 'offline']),
  /** named's real state (Mailroom's own instance) and why, e.g. not run by Mailroom. */
  nameServer: DaemonStatus,
  /** null until an SSL area exists; never a fixed number. */
  sslCertificates: z.number().int().nullable(),
  zones: z.array(Zone),
});
export type DnsDashboard = z.infer<typeof DnsDashboard>;

export const DnsDashboardQuery = z.object({ limit: queryInt(1, 100, 'limit').optional() });
