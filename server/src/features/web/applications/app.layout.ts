import {
  APP_PHP_TYPES,
  phpAppLayout,
  RELEASE_RETENTION,
  type AppType,
} from '@mailroom/contract/web/applications';
import { VHOST_DEFAULTS, type VirtualHostValues } from '@mailroom/contract/web/vhosts';
import type { AppConfig } from './application.repository.ts';

/** Where an application's files are and which virtual host serves it (no I/O here). */

export const isRoot = () => typeof process.getuid === 'function' && process.getuid() === 0;

/** Types whose release is a process Mailroom runs and Apache proxies to. */
export const PROCESS_TYPES: readonly AppType[] = ['Node.js', 'Python'];
/** Types whose release is files Apache serves itself (no process; PHP types through their PHP-FPM pool). */
export const FILE_TYPES: readonly AppType[] = ['Static', 'Angular', ...APP_PHP_TYPES];
export const servesFiles = (type: string): boolean => (FILE_TYPES as readonly string[]).includes(type);

export const releasesFolder = (c: AppConfig) => `${c.deploymentPath.replace(/\/+$/, '')}/releases`;
/**
 * The application's persisted data folder (system path): outside every release folder, so it
 * survives deploys and rollbacks; owned by the app's user; what the app's own backups hold (Enable
 * Backup, Backup Frequency, Backup Retention). A release reaches it as ../../data from its folder.
 * Other parts (e.g. PHP apps' uploads) read the path from here only.
 */
export const appDataDir = (c: Pick<AppConfig, 'deploymentPath'>) =>
  `${c.deploymentPath.replace(/\/+$/, '')}/data`;
export const appLogFile = (c: AppConfig) =>
  c.logPath || `${c.deploymentPath.replace(/\/+$/, '')}/logs/${c.name}.log`;

/**
 * The Apache lines a PHP type adds to its host: its front controller (a path that is no file
 * answers index.php) and the folders Apache never serves.
 */
export function phpAppDirectives(type: string): string[] {
  const l = phpAppLayout(type);
  if (!l) return [];
  const out: string[] = [];
  if (l.frontController) out.push('FallbackResource /index.php');
  if (l.deny.length)
    out.push(
      `<LocationMatch "^/(?:${l.deny.map((d) => d.replace(/[.]/g, '\\.')).join('|')})(?:/|$)">`,
      '  Require all denied',
      '</LocationMatch>',
    );
  return out;
}

/**
 * Angular: a single-page app; a path that is no file (a deep link such as /some/route) answers the
 * build's index.html (mod_dir's FallbackResource, in the app's own directives after the operator's).
 */
export const SPA_FALLBACK = 'FallbackResource /index.html';

/** The virtual host an application is served by: the app's domain, security and cache fields. */
export function vhostValuesFor(
  c: AppConfig,
  status: VirtualHostValues['status'],
  base: VirtualHostValues | null,
): VirtualHostValues {
  const own = c.customDirectives.trim();
  // The type's own lines, after the operator's (Angular's fallback, a PHP type's front controller).
  const extra = [...(c.type === 'Angular' ? [SPA_FALLBACK] : []), ...phpAppDirectives(c.type)];
  return {
    ...VHOST_DEFAULTS,
    ...(base ?? {}),
    domain: c.domain,
    serverName: base?.serverName ?? c.domain,
    documentRoot: c.deploymentPath,
    status: c.enableMaintenanceMode ? 'maintenance' : status,
    sslEnabled: c.sslEnabled,
    sslCertificateId: null,
    sslCertificate: c.sslCertificate,
    sslPrivateKey: c.sslPrivateKey,
    enableGzip: c.enableCompression,
    enableCaching: c.enableCaching,
    cacheExpiry: c.cacheExpiry,
    enablePhp: false,
    enableSecurityHeaders: c.enableSecurityHeaders,
    enableRateLimiting: c.enableRateLimiting,
    rateLimitRequests: c.rateLimitRequests,
    rateLimitWindow: c.rateLimitWindow,
    enableAccessControl: c.enableAccessControl,
    allowedIps: c.allowedIps,
    blockedIps: c.blockedIps,
    enableMaintenanceMode: c.enableMaintenanceMode,
    maintenanceMessage: c.maintenanceMessage,
    customDirectives: extra.length ? [...(own ? [own] : []), ...extra].join('\n') : c.customDirectives,
  };
}

/** The retention rule (documented in the contract): the live release and the newest before it, RELEASE_RETENTION folders in all. */
export function releasesToPrune<T extends { id: number; path: string | null }>(
  newestFirst: T[],
  liveId: number,
): T[] {
  const keep = new Set<string>();
  const live = newestFirst.find((r) => r.id === liveId);
  if (live?.path) keep.add(live.path);
  for (const r of newestFirst) {
    if (keep.size >= RELEASE_RETENTION) break;
    if (r.path) keep.add(r.path);
  }
  return newestFirst.filter((r) => r.path !== null && !keep.has(r.path));
}
