import type { WebServerSettings } from '@mailroom/contract/web/settings';
import { APACHE_PATHS, type ApacheMode, listenAddress, servedPort } from '../stack/apache.layout.ts';
import { indentDirectives } from '../stack/custom-directives.rules.ts';
import { loadModuleLines, type ModuleKey, MODULES, modulePath } from '../stack/apache-modules.rules.ts';
import {
  errorDocumentText,
  PROBE_ENV,
  PROBE_HEADER,
  probeRule,
  type VhostProbe,
} from '../vhosts/vhost-file.renderer.ts';
import { createHash } from 'node:crypto';
import type { WebTlsPolicy } from '../stack/web-tls-policy.rules.ts';
import { tlsExtrasDirectives, tlsExtrasModules } from './ssl-extras.renderer.ts';

/** What the server-wide files need to know about the hosts. */
export interface HostsSummary {
  /** Configured ports of the hosts (HTTP), and of their HTTPS sides. */
  httpPorts: number[];
  httpsPorts: number[];
  anyRateLimit: boolean;
  /** Installed PHP versions some host runs through PHP-FPM (mod_proxy_fcgi is loaded then). */
  phpVersions?: string[];
  /** The SSL area's settings that apply to the web server. */
  tlsPolicy?: WebTlsPolicy | null;
  /** A web application is proxied by some host (mod_proxy + mod_proxy_http). */
  anyProxy?: boolean;
  /** A PHP application's host passes its variables (mod_env's SetEnv). */
  anyAppEnv?: boolean;
  /** Some application is load balanced over its instances (mod_proxy_balancer). */
  anyBalancer?: boolean;
  /**
   * The default certificate: the HTTPS catch-all's (unknown names never get a site's certificate)
   * and that of hosts with SSL on but no certificate of their own.
   */
  defaultTls: { certificateFile: string; keyFile: string; chainFile?: string | null } | null;
  /** SSL Offloading: the proxies whose X-Forwarded-Proto: https counts as HTTPS (null: off). */
  offloadingProxies?: string[] | null;
}

const LOG_FORMATS: Record<Exclude<WebServerSettings['logFormat'], 'custom'>, string> = {
  common: '%h %l %u %t \\"%r\\" %>s %b',
  combined: '%h %l %u %t \\"%r\\" %>s %b \\"%{Referer}i\\" \\"%{User-Agent}i\\"',
  referer: '%{Referer}i -> %U',
  agent: '%{User-Agent}i',
};
/**
 * The figures fields (the shared log's last six): host, client, time, status, bytes, duration in µs.
 * The time is `%{sec}t` (seconds since the epoch, printed by Apache itself), not `%{%s}t`: that one
 * goes through strftime(), whose tzset() stats /etc/localtime on every request (bench: one system
 * call and about 1,800 instructions per request, `bench/src/web/variants.ts` statsStrftimeTime).
 */
export const STATS_LOG_FORMAT = '%v %a %{sec}t %>s %B %D';
/**
 * Enable SSL Metrics: one space-free field just before the figures fields, read by the roll-up
 * (log-rollup.service.ts): protocol, cipher, keep-alive requests before this one on the connection
 * (0: the request that came with the handshake), whether the session was resumed, and the HTTP/2
 * stream (1: the first request of an HTTP/2 connection, whose %k is 1 for every stream). Plain HTTP
 * requests print `tls:-/-/0/-/-`. Only with mod_ssl loaded (Apache knows no `%{..}x` without it).
 */
export const TLS_LOG_FIELD =
  'tls:%{SSL_PROTOCOL}x/%{SSL_CIPHER}x/%k/%{SSL_SESSION_RESUMED}x/%{H2_STREAM_ID}e';

/**
 * The one access log Apache writes per request (what the figures are rolled up from): with
 * Enable Logging, the administrator's Access Log Path in the chosen format followed by the six
 * figures fields; without, the figures log alone. One write per request, as a stock Apache does.
 */
export function figuresLogPath(s: Pick<WebServerSettings, 'enableLogging' | 'accessLogPath'>): string {
  return s.enableLogging ? s.accessLogPath : APACHE_PATHS.statsLog;
}

function accessLog(s: WebServerSettings, p: (x: string) => string, tls: boolean): string {
  let out = '';
  for (const [name, fmt] of Object.entries(LOG_FORMATS)) out += `LogFormat "${fmt}" ${name}\n`;
  if (s.logFormat === 'custom') out += `LogFormat "${s.customLogFormat}" custom\n`;
  const chosen = s.logFormat === 'custom' ? s.customLogFormat : LOG_FORMATS[s.logFormat];
  const figures = tls ? `${TLS_LOG_FIELD} ${STATS_LOG_FORMAT}` : STATS_LOG_FORMAT;
  const fmt = s.enableLogging ? `${chosen} ${figures}` : figures;
  out += `LogFormat "${fmt}" mailroom_stats\n`;
  // Mailroom's own probes are not the sites' traffic.
  out += `CustomLog "${p(figuresLogPath(s))}" mailroom_stats env=!${PROBE_ENV}\n`;
  return out;
}

const TOKENS: Record<WebServerSettings['serverTokens'], string> = {
  Full: 'Full',
  OS: 'OS',
  Minimal: 'Minimal',
  Minor: 'Minor',
  Major: 'Major',
  ProductOnly: 'Prod',
};

/** Modules the configuration uses. */
export function neededModules(s: WebServerSettings, hosts: HostsSummary): ModuleKey[] {
  const m: ModuleKey[] = [
    'authz_core',
    'authz_host',
    'mime',
    'dir',
    'alias',
    'setenvif',
    'rewrite',
    'headers',
  ];
  m.push('filter', 'deflate', 'expires');
  if (s.enableCompression && s.enableBrotli) m.push('brotli');
  if (hosts.httpsPorts.length) m.push('socache_shmcb', 'ssl', ...tlsExtrasModules(hosts.tlsPolicy));
  if (hosts.phpVersions?.length || hosts.anyProxy) m.push('proxy');
  if (hosts.phpVersions?.length) m.push('proxy_fcgi');
  if (hosts.anyProxy) m.push('proxy_http');
  if (hosts.anyProxy && hosts.anyBalancer) m.push('slotmem_shm', 'proxy_balancer', 'lbmethod_byrequests');
  if (hosts.anyAppEnv) m.push('env');
  if (hosts.anyRateLimit || s.enableRateLimiting || s.enableIPBasedRateLimit)
    m.push('unique_id', 'security2');
  return m;
}

const HEADER =
  '# Rendered by Mailroom from the web server settings. Do not edit: Mailroom overwrites this file.\n';

function securityHeaders(s: WebServerSettings): string {
  if (!s.enableSecurityHeaders) return '';
  const when = 'env=mailroom_secure';
  let out = '# Security headers: for every host with Enable Security Headers (it sets mailroom_secure).\n';
  const csp: string[] = [];
  if (s.enableCSP && s.cspPolicy.trim()) csp.push(s.cspPolicy.trim().replace(/;\s*$/, ''));
  if (s.enableXFrameOptions) {
    if (s.xFrameOptions === 'ALLOW-FROM') csp.push(`frame-ancestors ${s.xFrameOptionsAllowFrom}`);
    else out += `Header always set X-Frame-Options ${s.xFrameOptions} ${when}\n`;
  }
  if (csp.length) out += `Header always set Content-Security-Policy "${csp.join('; ')}" ${when}\n`;
  if (s.enableXContentTypeOptions) out += `Header always set X-Content-Type-Options nosniff ${when}\n`;
  if (s.enableXSSProtection) out += `Header always set X-XSS-Protection "1; mode=block" ${when}\n`;
  if (s.enableReferrerPolicy) out += `Header always set Referrer-Policy ${s.referrerPolicy} ${when}\n`;
  if (s.enableHSTS) {
    const v = [`max-age=${s.hstsMaxAge}`];
    if (s.hstsIncludeSubdomains) v.push('includeSubDomains');
    if (s.hstsPreload) v.push('preload');
    // Only over HTTPS (browsers ignore it over HTTP, and it must not be sent there).
    out += `Header always set Strict-Transport-Security "${v.join('; ')}" "expr=-n reqenv('mailroom_secure') && -n reqenv('mailroom_https')"\n`;
  }
  return out;
}

function rateLimits(s: WebServerSettings, dataDir: string, anyHost: boolean): string {
  if (!anyHost && !s.enableRateLimiting && !s.enableIPBasedRateLimit) return '';
  let out = '# Rate limiting: mod_security2, counters per client address shared by every process.\n';
  out += `SecDataDir "${dataDir}"\nSecTmpDir "${dataDir}"\n`;
  out += 'SecRequestBodyAccess Off\nSecResponseBodyAccess Off\nSecAuditEngine Off\nSecDebugLogLevel 0\n';
  const global = s.enableRateLimiting || s.enableIPBasedRateLimit;
  out += `SecRuleEngine ${global ? 'On' : 'Off'}\n`;
  if (s.enableRateLimiting) {
    const limit = s.rateLimitRequests + s.rateLimitBurst;
    out += `SecAction "id:900001,phase:1,nolog,pass,initcol:global=mailroom,setvar:tx.mr_key=%{REMOTE_ADDR}_%{SERVER_NAME}"\n`;
    out += `SecAction "id:900002,phase:1,nolog,pass,initcol:resource=%{tx.mr_key},setvar:resource.mr_hits=+1,expirevar:resource.mr_hits=${s.rateLimitWindow}"\n`;
    out += `SecRule RESOURCE:MR_HITS "@gt ${limit}" "id:900003,phase:1,deny,status:429,log,msg:'Mailroom rate limit: ${limit} requests per ${s.rateLimitWindow} s per host',setenv:mailroom_limited=1"\n`;
    out += `Header always set Retry-After "${s.rateLimitWindow}" env=mailroom_limited\n`;
  }
  if (s.enableIPBasedRateLimit) {
    out += `SecAction "id:900011,phase:1,nolog,pass,initcol:ip=%{REMOTE_ADDR}_all,setvar:ip.mr_all=+1,expirevar:ip.mr_all=${s.ipRateLimitWindow}"\n`;
    out += `SecRule IP:MR_ALL "@gt ${s.ipRateLimitRequests}" "id:900012,phase:1,deny,status:429,log,msg:'Mailroom rate limit: ${s.ipRateLimitRequests} requests per ${s.ipRateLimitWindow} s per address',setenv:mailroom_limited_ip=1"\n`;
    out += `Header always set Retry-After "${s.ipRateLimitWindow}" env=mailroom_limited_ip\n`;
  }
  return out;
}

/** conf-available/mailroom.conf: the server-wide part of Apache's configuration. */
export function renderServerConf(s: WebServerSettings, hosts: HostsSummary, mode: ApacheMode): string {
  const p = mode.hostPath;
  let out = HEADER;
  out += loadModuleLines(neededModules(s, hosts));
  out += `ServerName ${s.serverName}\n`;
  out += `ServerAdmin ${s.serverAdmin}\n`;
  out += `Timeout ${s.timeout}\n`;
  out += `KeepAlive ${s.keepAlive ? 'On' : 'Off'}\n`;
  out += `MaxKeepAliveRequests ${s.maxKeepAliveRequests}\n`;
  out += `KeepAliveTimeout ${s.keepAliveTimeout}\n`;
  out += `ServerTokens ${TOKENS[s.serverTokens]}\n`;
  out += `ServerSignature ${s.serverSignature === 'Email' ? 'EMail' : s.serverSignature}\n`;
  const threads = 25;
  out += '<IfModule mpm_event_module>\n';
  out += `  ServerLimit ${Math.max(16, Math.ceil(s.maxRequestWorkers / threads))}\n`;
  out += `  ThreadsPerChild ${threads}\n`;
  out += `  MaxRequestWorkers ${s.maxRequestWorkers}\n`;
  out += `  MaxConnectionsPerChild ${s.maxConnectionsPerChild}\n`;
  out += '</IfModule>\n';
  out += `FileETag ${s.enableETags ? 'MTime Size' : 'None'}\n`;
  if (!s.enableLastModified) out += 'Header unset Last-Modified\n';
  // Compression: the hosts' Enable Gzip adds the filter; the level is the server's.
  out += `DeflateCompressionLevel ${s.deflateCompressionLevel}\n`;
  if (!s.enableCompression || !s.enableDeflate) out += 'SetEnv no-gzip 1\n';
  if (s.enableCompression && s.enableBrotli) {
    out += `BrotliCompressionQuality ${s.brotliCompressionLevel}\n`;
    out +=
      'AddOutputFilterByType BROTLI_COMPRESS text/html text/plain text/css text/javascript application/javascript application/json image/svg+xml\n';
  }
  if (s.enableExpires) {
    out += 'ExpiresActive On\n';
    out += `ExpiresDefault "access plus ${s.expiresDefault} seconds"\n`;
  }
  out += securityHeaders(s);
  out += `LogLevel ${s.logLevel}\n`;
  out += `ErrorLog "${p(s.errorLogPath)}"\n`;
  // mod_ssl is loaded exactly when some host serves HTTPS (neededModules).
  out += accessLog(s, p, hosts.httpsPorts.length > 0 && hosts.tlsPolicy?.extras?.metricsInterval != null);
  out += rateLimits(s, p(APACHE_PATHS.secDataDir), hosts.anyRateLimit);
  if (s.enableRewriteEngine) out += 'RewriteEngine On\n';
  out += `<Directory "${p(APACHE_PATHS.acmeWebroot)}/.well-known/acme-challenge/">\n  Options None\n  AllowOverride None\n  Require all granted\n  ForceType text/plain\n</Directory>\n`;
  if (hosts.httpsPorts.length) out += tlsDirectives(hosts.tlsPolicy ?? null, p(APACHE_PATHS.runDir));
  out += offloading(hosts.offloadingProxies ?? null);
  if (s.enableCustomDirectives && s.customDirectives.trim()) {
    out += '# Custom Directives\n' + indentDirectives(s.customDirectives, '') + '\n';
  }
  return out;
}

/**
 * SSL Offloading: a request over plain HTTP from a trusted TLS-terminating proxy that says
 * X-Forwarded-Proto: https counts as HTTPS: mailroom_https (no HTTP->HTTPS redirect, HSTS sent) and
 * HTTPS=on for the sites' scripts. Set before any rewrite (server context: post-read-request).
 */
export function offloading(proxies: string[] | null): string {
  if (!proxies?.length) return '';
  const from = proxies.map((a) => `-R '${a}'`).join(' || ');
  return (
    '# SSL Offloading: HTTPS ended by a trusted proxy (its X-Forwarded-Proto) counts as HTTPS.\n' +
    `SetEnvIfExpr "(${from}) && req('X-Forwarded-Proto') == 'https'" mailroom_https=1 HTTPS=on\n`
  );
}

/** Cipher lists: forward secrecy only (ECDHE/DHE), or any strong suite, or medium ones too. */
export function cipherSuite(t: WebTlsPolicy): string {
  if (t.forwardSecrecy)
    return `ECDHE+AESGCM:ECDHE+CHACHA20:DHE+AESGCM:DHE+CHACHA20${t.weakCiphers ? ':ECDHE+AES:DHE+AES' : ''}:!aNULL:!eNULL:!MD5`;
  return `HIGH${t.weakCiphers ? ':MEDIUM' : ''}:!aNULL:!eNULL:!MD5`;
}

/**
 * The SSL settings of the SSL area that apply to the web server: protocols (the versions switched
 * on between the minimum and the maximum), ciphers with the server's order, the session cache and
 * tickets, OCSP stapling. Without them: Apache's defaults with the old protocols off.
 */
export function tlsDirectives(t: WebTlsPolicy | null, runDir: string): string {
  if (!t)
    return `SSLSessionCache "shmcb:${runDir}/mailroom_ssl_scache(512000)"\nSSLProtocol all -SSLv3 -TLSv1 -TLSv1.1\n`;
  let out = '# TLS: the SSL settings that apply to the web server (SSL area).\n';
  out += `SSLProtocol -all ${t.protocols.map((p) => `+${p}`).join(' ')}\n`;
  out += `SSLCipherSuite ${cipherSuite(t)}\n`;
  out += 'SSLHonorCipherOrder on\n';
  if (t.sessionCache) {
    // About 512 bytes a session in Apache's shared cache.
    out += `SSLSessionCache "shmcb:${runDir}/mailroom_ssl_scache(${Math.max(64_000, t.sessionCacheSize * 512)})"\n`;
    out += `SSLSessionCacheTimeout ${t.sessionTimeout}\n`;
  } else {
    // Cache off: nothing kept in it (lifetime 0). Not `SSLSessionCache none`: Apache 2.4 dies on a
    // graceful restart from a shared cache to `none`, which would take every site down.
    out += `SSLSessionCache "shmcb:${runDir}/mailroom_ssl_scache(64000)"\n`;
    out += 'SSLSessionCacheTimeout 0\n';
  }
  out += `SSLSessionTickets ${t.sessionTickets ? 'on' : 'off'}\n`;
  if (t.ocspStapling) {
    out += 'SSLUseStapling on\n';
    out += `SSLStaplingCache "shmcb:${runDir}/mailroom_ssl_stapling(128000)"\n`;
    out += `SSLStaplingResponderTimeout ${t.ocspTimeout}\n`;
    // A responder that fails never breaks the handshake.
    out += 'SSLStaplingReturnResponderErrors off\n';
  }
  return out + tlsExtrasDirectives(t);
}

/** ports.conf: one Listen per served port. */
export function renderPorts(s: WebServerSettings, hosts: HostsSummary, mode: ApacheMode): string {
  const http = [...new Set([s.listenPort, ...hosts.httpPorts].map((p) => servedPort(mode, p)))];
  const https = [...new Set(hosts.httpsPorts.map((p) => servedPort(mode, p)))].filter(
    (p) => !http.includes(p),
  );
  let out = HEADER;
  for (const port of http.sort((a, b) => a - b)) out += `Listen ${listenAddress(mode, port)}\n`;
  for (const port of https.sort((a, b) => a - b)) out += `Listen ${listenAddress(mode, port)} https\n`;
  return out;
}

/**
 * The catch-all host on every served port: a name no site serves answers 404 from here, never
 * another site's content. Probed like a site, so a settings change is proved by it.
 */
export function renderDefaultSite(
  s: WebServerSettings,
  hosts: HostsSummary,
  mode: ApacheMode,
  serverConf: string,
): { content: string; probe: VhostProbe } {
  const http = [...new Set([s.listenPort, ...hosts.httpPorts].map((p) => servedPort(mode, p)))].sort(
    (a, b) => a - b,
  );
  const https = [...new Set(hosts.httpsPorts.map((p) => servedPort(mode, p)))].filter(
    (p) => !http.includes(p),
  );
  const gen = createHash('sha256')
    .update(serverConf)
    .update(JSON.stringify([http, https]))
    .digest('hex')
    .slice(0, 12);
  const token = `_default_;${gen}`;
  const side = (port: number, tls: boolean) => {
    let out = `<VirtualHost *:${port}>\n`;
    out += '  ServerName mailroom-default.invalid\n';
    out += `  DocumentRoot "${mode.hostPath(APACHE_PATHS.acmeWebroot)}"\n`;
    out += `  Header always set ${PROBE_HEADER} "${token}" env=${PROBE_ENV}\n`;
    out += `  Alias /.well-known/acme-challenge/ "${mode.hostPath(APACHE_PATHS.acmeWebroot)}/.well-known/acme-challenge/"\n`;
    out += '  RewriteEngine On\n';
    out += probeRule();
    out += '  RewriteRule ^/\\.well-known/acme-challenge/ - [L]\n';
    out += '  RewriteRule ^ - [R=404,L]\n';
    out += `  ErrorDocument 404 ${errorDocumentText('No site is served at this name.')}\n`;
    if (tls && hosts.defaultTls) {
      out += '  SSLEngine on\n';
      out += `  SSLCertificateFile "${hosts.defaultTls.certificateFile}"\n`;
      out += `  SSLCertificateKeyFile "${hosts.defaultTls.keyFile}"\n`;
      if (hosts.defaultTls.chainFile) out += `  SSLCertificateChainFile "${hosts.defaultTls.chainFile}"\n`;
    }
    out += '</VirtualHost>\n';
    return out;
  };
  let content = HEADER;
  for (const port of http) content += side(port, false);
  if (hosts.defaultTls) for (const port of https) content += side(port, true);
  const targets = http.map((port) => ({ port, tls: false }));
  return {
    content,
    probe: {
      domain: '_default_',
      names: ['mailroom-default.invalid'],
      address: '127.0.0.1',
      targets,
      token,
      fingerprint: null,
    },
  };
}

/** Local mode's main file: Apache on loopback from Mailroom's files (system mode keeps Debian's). */
export function renderLocalMain(mode: ApacheMode): string {
  const p = mode.hostPath;
  const base: ModuleKey[] = ['authz_core', 'mime', 'dir'];
  let out =
    '# Rendered by Mailroom (local mode): Apache runs from these files on loopback ports.\n' +
    '# Start: apache2 -d <this folder> -f <this folder>/apache2.conf -DFOREGROUND\n';
  out += `DefaultRuntimeDir "${p(APACHE_PATHS.runDir)}"\n`;
  out += `PidFile "${p(APACHE_PATHS.pidFile)}"\n`;
  out += `Mutex file:${p(APACHE_PATHS.runDir)} default\n`;
  out += 'User www-data\nGroup www-data\n';
  out += `ErrorLog "${p('/var/log/apache2/error.log')}"\n`;
  out += `LoadModule mpm_event_module ${APACHE_PATHS.modules}/mod_mpm_event.so\n`;
  for (const k of base) out += `LoadModule ${MODULES[k].name}_module ${modulePath(MODULES[k])}\n`;
  out += 'TypesConfig /etc/mime.types\n';
  out += 'DirectoryIndex index.html index.htm index.php\n';
  out += 'AccessFileName .htaccess\n';
  out +=
    '<Directory />\n  Options FollowSymLinks\n  AllowOverride None\n  Require all denied\n</Directory>\n';
  out += '<FilesMatch "^\\.ht">\n  Require all denied\n</FilesMatch>\n';
  out += 'Include ports.conf\n';
  out += 'IncludeOptional conf-enabled/*.conf\n';
  out += 'IncludeOptional sites-enabled/*.conf\n';
  return out;
}

/** The logrotate file for the logs (checked with `logrotate -d`). */
export function renderLogrotate(s: WebServerSettings, mode: ApacheMode, reloadCommand: string): string {
  const p = mode.hostPath;
  const files = [...new Set([p(s.accessLogPath), p(s.errorLogPath), p(APACHE_PATHS.statsLog)])];
  return (
    '# Rendered by Mailroom from the web server settings (Logging). Do not edit.\n' +
    `${files.map((f) => `"${f}"`).join(' ')} {\n` +
    `  ${s.logRotateFrequency}\n` +
    `  maxsize ${s.logRotateSize}\n` +
    `  rotate ${s.logRotateCount}\n` +
    '  missingok\n  notifempty\n  compress\n  delaycompress\n  sharedscripts\n' +
    `  postrotate\n    ${reloadCommand} > /dev/null 2>&1 || true\n  endscript\n}\n`
  );
}
