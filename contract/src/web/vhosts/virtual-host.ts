import { z } from 'zod';
import { BACKUP_FREQUENCIES, PHP_VERSIONS, VHOST_STATUSES } from './labels.ts';

/** A stored virtual host, as the API answers it. */
export const VirtualHost = z.object({
  id: z.number(),
  domain: z.string(),
  documentRoot: z.string(),
  serverName: z.string(),
  serverAlias: z.array(z.string()),
  status: z.enum(VHOST_STATUSES),
  lastModified: z.string(),
  /** Requests in the last 24 hours, from Apache's access log (0 until the roll-up has figures). */
  traffic: z.number(),
  /** Average response time in ms over the last 24 hours (null: no requests). */
  responseTime: z.number().nullable(),
  ipAddress: z.string(),
  port: z.number(),
  sslEnabled: z.boolean(),
  sslPort: z.number().nullable(),
  sslCertificateId: z.number().nullable(),
  sslCertificate: z.string(),
  sslPrivateKey: z.string(),
  sslCertificateChain: z.string(),
  redirectHttpToHttps: z.boolean(),
  enableGzip: z.boolean(),
  enableCaching: z.boolean(),
  cacheExpiry: z.number(),
  enableRewrite: z.boolean(),
  enablePhp: z.boolean(),
  phpVersion: z.enum(PHP_VERSIONS),
  phpMemoryLimit: z.string(),
  phpMaxExecutionTime: z.number(),
  phpUploadMaxFilesize: z.string(),
  phpPostMaxSize: z.string(),
  enableSecurityHeaders: z.boolean(),
  enableRateLimiting: z.boolean(),
  rateLimitRequests: z.number(),
  rateLimitWindow: z.number(),
  enableAccessControl: z.boolean(),
  allowedIps: z.array(z.string()),
  blockedIps: z.array(z.string()),
  enableMaintenanceMode: z.boolean(),
  maintenanceMessage: z.string(),
  enableBackup: z.boolean(),
  backupFrequency: z.enum(BACKUP_FREQUENCIES),
  backupRetention: z.number(),
  customDirectives: z.string(),
  /** The Unix user the site's files (and its PHP pool) belong to. */
  siteUser: z.string(),
  /** Whether the site's configuration is live (false: saved, the last apply failed; see GET apply). */
  live: z.boolean(),
});
export type VirtualHost = z.infer<typeof VirtualHost>;
