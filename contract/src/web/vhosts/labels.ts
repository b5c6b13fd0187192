/** Spec 3 §3.1: status of a virtual host. */
export const VHOST_STATUSES = ['active', 'inactive', 'maintenance'] as const;
export type VhostStatus = (typeof VHOST_STATUSES)[number];
/** Spec 3 §3.1: the PHP versions a site may ask for (only installed ones are offered: capabilities). */
export const PHP_VERSIONS = ['8.3', '8.2', '8.1', '8.0', '7.4'] as const;
export const BACKUP_FREQUENCIES = ['daily', 'weekly', 'monthly', 'never'] as const;

/** Spec 3 §2.2 status filter (value '' = All Status). */
export const VHOST_STATUS_FILTER = [
  { value: '', label: 'All Status' },
  { value: 'active', label: 'Active' },
  { value: 'inactive', label: 'Inactive' },
  { value: 'maintenance', label: 'Maintenance' },
] as const;

/** Sections of the Add/Edit Virtual Host modal, in the spec's order (§2.2). */
export const VHOST_SECTIONS = [
  'Basic',
  'SSL',
  'Performance',
  'PHP',
  'Security',
  'Maintenance',
  'Custom Directives',
] as const;

export const vhostLabels = {
  domain: 'Domain',
  documentRoot: 'Document Root',
  serverName: 'Server Name',
  serverAlias: 'Server Aliases',
  status: 'Status',
  ipAddress: 'IP Address',
  port: 'Port',
  sslEnabled: 'Enable SSL',
  sslPort: 'SSL Port',
  sslCertificateId: 'Certificate',
  sslCertificate: 'SSL Certificate',
  sslPrivateKey: 'SSL Private Key',
  sslCertificateChain: 'SSL Certificate Chain',
  redirectHttpToHttps: 'Redirect HTTP to HTTPS',
  enableGzip: 'Enable Gzip',
  enableCaching: 'Enable Caching',
  cacheExpiry: 'Cache Expiry',
  enableRewrite: 'Enable Rewrite',
  enablePhp: 'Enable PHP',
  phpVersion: 'PHP Version',
  phpMemoryLimit: 'PHP Memory Limit',
  phpMaxExecutionTime: 'PHP Max Execution Time',
  phpUploadMaxFilesize: 'PHP Upload Max Filesize',
  phpPostMaxSize: 'PHP Post Max Size',
  enableSecurityHeaders: 'Enable Security Headers',
  enableRateLimiting: 'Enable Rate Limiting',
  rateLimitRequests: 'Rate Limit Requests',
  rateLimitWindow: 'Rate Limit Window',
  enableAccessControl: 'Enable Access Control',
  allowedIps: 'Allowed IPs',
  blockedIps: 'Blocked IPs',
  enableMaintenanceMode: 'Enable Maintenance Mode',
  maintenanceMessage: 'Maintenance Message',
  enableBackup: 'Enable Backup',
  backupFrequency: 'Backup Frequency',
  backupRetention: 'Backup Retention',
  customDirectives: 'Custom Directives',
} as const;
export type VhostField = keyof typeof vhostLabels;

export const webMessages = {
  saved: 'Virtual host saved successfully!',
  deleteConfirm: (domain: string) => `Are you sure you want to delete the virtual host "${domain}"?`,
  loadFailed: 'Failed to load virtual hosts',
  dashboardLoadFailed: 'Failed to load web management data',
  empty: 'No virtual hosts found',
  searchPlaceholder: 'Search virtual hosts...',
  vhostExists: (domain: string) => `A virtual host ${domain} already exists`,
  nameInUse: (name: string, domain: string) => `${name} is already served by the virtual host ${domain}`,
  vhostNotFound: (domain: string) => `Virtual host ${domain} was not found`,
  documentRootOutside: (roots: readonly string[]) =>
    `Document Root must be inside ${roots.join(' or ')} (symbolic links resolved)`,
  certificateNotFound: 'The chosen certificate was not found in the SSL area',
  certificateNotCovering: (names: readonly string[]) => `The certificate does not cover ${names.join(', ')}`,
  certificateKeyMismatch: 'The certificate does not match its private key',
  certificateFileUnreadable: (path: string) => `No readable PEM certificate or key at ${path}`,
  certificateRequired: 'Choose a certificate from the SSL area, or give the certificate and key paths',
  sslRequiredForRedirect: 'Redirect HTTP to HTTPS needs SSL enabled',
  directiveForbidden: (line: number, what: string) =>
    `Line ${line}: ${what} is not allowed in a virtual host's custom directives`,
  apacheRefused: 'Apache refused the configuration',
  moduleMissing: (module: string, pkg: string) =>
    `The Apache module ${module} is not installed (Debian package ${pkg})`,
  phpNotInstalled: (version: string) => `PHP ${version} is not installed on this server (php${version}-fpm)`,
  portClash: (port: number) => `Port ${port} is used for both HTTP and HTTPS`,
  bareName: 'A bare name is not accepted: give a domain such as www.example.com',
  phpAboveServer: (label: string, limit: string | number, unit = '') =>
    `${label} must be at most ${limit}${unit}, the server-wide ${label} (Server Configuration, PHP)`,
} as const;
