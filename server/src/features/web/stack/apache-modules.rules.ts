import { APACHE_PATHS } from './apache.layout.ts';

/** An Apache module Mailroom may load, the Debian package that ships it, and what it is for. */
export interface ModuleInfo {
  /** `<name>_module` in LoadModule; the file is mod_<file>.so. */
  name: string;
  file: string;
  package: string;
  purpose: string;
}

export const MODULES = {
  authz_core: { name: 'authz_core', file: 'authz_core', package: 'apache2-bin', purpose: 'Require' },
  authz_host: {
    name: 'authz_host',
    file: 'authz_host',
    package: 'apache2-bin',
    purpose: 'Allowed/Blocked IPs (Require ip)',
  },
  mime: { name: 'mime', file: 'mime', package: 'apache2-bin', purpose: 'content types' },
  dir: { name: 'dir', file: 'dir', package: 'apache2-bin', purpose: 'DirectoryIndex' },
  alias: { name: 'alias', file: 'alias', package: 'apache2-bin', purpose: 'ACME challenges (Alias)' },
  setenvif: { name: 'setenvif', file: 'setenvif', package: 'apache2-bin', purpose: 'per-host switches' },
  rewrite: {
    name: 'rewrite',
    file: 'rewrite',
    package: 'apache2-bin',
    purpose: 'maintenance, redirects, Rewrite',
  },
  headers: {
    name: 'headers',
    file: 'headers',
    package: 'apache2-bin',
    purpose: 'security headers, Retry-After',
  },
  filter: { name: 'filter', file: 'filter', package: 'apache2-bin', purpose: 'output filters by type' },
  deflate: { name: 'deflate', file: 'deflate', package: 'apache2-bin', purpose: 'Gzip' },
  brotli: { name: 'brotli', file: 'brotli', package: 'apache2-bin', purpose: 'Brotli' },
  expires: {
    name: 'expires',
    file: 'expires',
    package: 'apache2-bin',
    purpose: 'Caching (Expires, Cache-Control)',
  },
  ssl: { name: 'ssl', file: 'ssl', package: 'apache2-bin', purpose: 'HTTPS' },
  http2: {
    name: 'http2',
    file: 'http2',
    package: 'apache2-bin',
    purpose: 'HTTP/2 over HTTPS (SSL settings)',
  },
  reqtimeout: {
    name: 'reqtimeout',
    file: 'reqtimeout',
    package: 'apache2-bin',
    purpose: 'SSL Handshake and Read Timeouts (RequestReadTimeout)',
  },
  socache_shmcb: {
    name: 'socache_shmcb',
    file: 'socache_shmcb',
    package: 'apache2-bin',
    purpose: 'TLS session cache',
  },
  unique_id: {
    name: 'unique_id',
    file: 'unique_id',
    package: 'apache2-bin',
    purpose: 'needed by mod_security2',
  },
  proxy: {
    name: 'proxy',
    file: 'proxy',
    package: 'apache2-bin',
    purpose: 'PHP through PHP-FPM and web applications (ProxyPass)',
  },
  proxy_fcgi: {
    name: 'proxy_fcgi',
    file: 'proxy_fcgi',
    package: 'apache2-bin',
    purpose: 'PHP through PHP-FPM (FastCGI to each site pool)',
  },
  security2: {
    name: 'security2',
    file: 'security2',
    package: 'libapache2-mod-security2',
    purpose: 'Rate limiting (per client address, counted across every Apache process)',
  },
  env: {
    name: 'env',
    file: 'env',
    package: 'apache2-bin',
    purpose: "PHP applications' environment variables (SetEnv, read with getenv)",
  },
  proxy_http: {
    name: 'proxy_http',
    file: 'proxy_http',
    package: 'apache2-bin',
    purpose: 'Web applications (HTTP to the running release)',
  },
  slotmem_shm: {
    name: 'slotmem_shm',
    file: 'slotmem_shm',
    package: 'apache2-bin',
    purpose: 'needed by mod_proxy_balancer (shared member slots)',
  },
  proxy_balancer: {
    name: 'proxy_balancer',
    file: 'proxy_balancer',
    package: 'apache2-bin',
    purpose: 'Web applications with Enable Load Balancing (one balancer over every running instance)',
  },
  lbmethod_byrequests: {
    name: 'lbmethod_byrequests',
    file: 'lbmethod_byrequests',
    package: 'apache2-bin',
    purpose: 'mod_proxy_balancer: requests shared evenly between the instances',
  },
} satisfies Record<string, ModuleInfo>;
export type ModuleKey = keyof typeof MODULES;

export const modulePath = (m: ModuleInfo) => `${APACHE_PATHS.modules}/mod_${m.file}.so`;

/**
 * The rate-limit module and why. mod_qos (libapache2-mod-qos 11.63) does not load into Debian's
 * Apache 2.4.71 here ("undefined symbol: pcre_free": built against PCRE 1, Apache now uses PCRE2);
 * mod_evasive counts per child process, so with the event MPM "after N requests" is not exact, and
 * it can only answer 403. mod_security2 keeps per-address counters in a shared collection on disk
 * (SecDataDir), so every process agrees, and answers 429 with the Retry-After Mailroom sets.
 */
export const RATE_LIMIT_MODULE = {
  name: 'security2',
  reason:
    'mod_security2: its per-address counters are shared by every Apache process (exact "after N requests") and it answers 429 with Retry-After; mod_qos does not load into this Apache (built against PCRE 1) and mod_evasive counts per process and answers 403.',
};

/** `<IfModule !x_module> LoadModule … </IfModule>`: loads a module unless Debian's mods-enabled already did. */
export function loadModuleLines(keys: readonly ModuleKey[]): string {
  return keys
    .map((k) => {
      const m = MODULES[k];
      return `<IfModule !${m.name}_module>\n  LoadModule ${m.name}_module ${modulePath(m)}\n</IfModule>\n`;
    })
    .join('');
}
