import { createHash } from 'node:crypto';
import type { VirtualHostValues } from '@mailroom/contract/web/vhosts';
import {
  APACHE_PATHS,
  type ApacheMode,
  servedPort,
  siteAvailablePath,
  siteEnabledPath,
} from '../stack/apache.layout.ts';
import { indentDirectives } from '../stack/custom-directives.rules.ts';

/** A stored virtual host, as the renderer needs it. */
export interface VhostRenderInput {
  id: number;
  values: VirtualHostValues;
  /** The certificate files to serve (SSL area certificate written beside the site, or the paths given). */
  tls: { certificateFile: string; keyFile: string; chainFile: string | null } | null;
  /** PHP: the site pool's socket, or the version asked for when it is not installed (absent: no PHP). */
  php?: { socket: string } | { missing: string } | null;
  /** The web application behind the host (issue 20): proxied to its running release, or its files. */
  app?: {
    type: string;
    runningPort: number | null;
    releasePath: string | null;
    /** Enable Load Balancing: the ports of every running instance (mod_proxy_balancer over them). */
    balancerPorts?: number[] | null;
  } | null;
  /**
   * A PHP application's variables (its live release's): SetEnv, so PHP reads them with getenv()
   * (FastCGI parameters); they change with the document root in the same graceful reload.
   */
  appEnv?: Record<string, string> | null;
}

/** A variable value Apache would read as quoting or a variable is never written (refused on save). */
const SAFE_ENV_VALUE = (v: string) => !/["\\]|\$\{/.test(v) && !/[\r\n]/.test(v);

/** What the probe asks of one rendered host after a reload. */
export interface VhostProbe {
  domain: string;
  names: string[];
  /** The address to connect to (127.0.0.1 for `*`). */
  address: string;
  /** Ports to connect to, and whether to speak TLS (with SNI) there. */
  targets: { port: number; tls: boolean }[];
  /** The value X-Mailroom-Probe must carry: this host, this generation of its file. */
  token: string;
  /** SHA-256 fingerprint (colon hex, upper case) the HTTPS side must present, when known. */
  fingerprint: string | null;
}

export const PROBE_PATH = '/.well-known/mailroom-probe';
export const PROBE_HEADER = 'X-Mailroom-Probe';
/**
 * Set by the probe's rewrite rule only: the probe header and the figures log test this variable
 * (a table look-up) rather than an expression on the URI for every request of every site.
 */
export const PROBE_ENV = 'mailroom_probe';

/** The probe answers 410 Gone, marked with PROBE_ENV (in the hosts whose rewrite engine is on). */
export const probeRule = () =>
  `  RewriteRule ^${PROBE_PATH.replace(/[.]/g, '\\.')}$ - [G,L,E=${PROBE_ENV}:1]\n`;
/** Seconds a client is told to wait while a site is in maintenance. */
export const MAINTENANCE_RETRY_AFTER = 3600;
export const DEFAULT_MAINTENANCE_MESSAGE = 'This site is down for maintenance. Please try again later.';
export const INACTIVE_MESSAGE = 'This site is not available.';
export const APP_NOT_RUNNING_MESSAGE = 'This application is not running.';

const GZIP_TYPES =
  'text/html text/plain text/css text/xml text/javascript application/javascript application/json application/xml image/svg+xml';

/** Apache quoting of a path (already refused when it holds `"`, `\`, `$`). */
const q = (s: string) => `"${s}"`;

/**
 * Whether a host's requests go through mod_rewrite: only when a rule of its own applies (not
 * active, an application that is not running, HTTP→HTTPS). A plain active site is served without
 * the rewrite engine: no rule is matched against its every request.
 */
function needsRewrite(h: VhostRenderInput, tls: boolean): boolean {
  const v = h.values;
  const app = h.app ?? null;
  if (v.status !== 'active') return true;
  if (app && app.type !== 'Static' && app.runningPort == null) return true;
  // The site's own directives may hold rewrite rules: they have always run with the engine on.
  if (/^\s*Rewrite/im.test(v.customDirectives)) return true;
  return !tls && v.sslEnabled && v.redirectHttpToHttps;
}

/**
 * Mailroom's probe (410 Gone, marked with PROBE_ENV) and ACME challenges left alone. With the
 * rewrite engine (the rules after these must not catch them): the probe rule and a stop for ACME.
 * Without it: the probe is marked by SetEnvIf and answered Gone by mod_alias, at no rewrite cost.
 */
function probeAndAcme(rewrite: boolean): string {
  if (rewrite)
    return `  RewriteEngine On\n${probeRule()}  RewriteRule ^/\\.well-known/acme-challenge/ - [L]\n`;
  const re = `^${PROBE_PATH.replace(/[.]/g, '\\.')}$`;
  return `  SetEnvIf Request_URI "${re}" ${PROBE_ENV}\n  RedirectMatch gone "${re}"\n`;
}

/** Text for an ErrorDocument: an HTML-safe single line that Apache takes literally. */
export function errorDocumentText(message: string): string {
  const html = message
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/\\/g, '&#92;')
    .replace(/\$/g, '&#36;')
    .replace(/%/g, '&#37;');
  return `"<!DOCTYPE html><html><head><meta charset=utf-8><title>Service Unavailable</title></head><body><p>${html}</p></body></html>"`;
}

/** `RewriteCond` lines that leave the allowed addresses out of a rule. */
const exceptIps = (ips: readonly string[]) => ips.map((ip) => `  RewriteCond expr "! -R '${ip}'"\n`).join('');

function names(v: VirtualHostValues): string[] {
  return [...new Set([v.serverName, v.domain, ...v.serverAlias])];
}

/** The inside of one <VirtualHost> (the same for its HTTP and HTTPS sides, bar TLS and redirect). */
function body(h: VhostRenderInput, mode: ApacheMode, tls: boolean, token: string): string {
  const v = h.values;
  const all = names(v);
  const aliases = all.filter((n) => n !== v.serverName);
  const app = h.app ?? null;
  const root = app?.type === 'Static' && app.releasePath ? app.releasePath : v.documentRoot;
  const proxyPort = app && app.type !== 'Static' && v.status === 'active' ? app.runningPort : null;
  let out = '';
  out += `  ServerName ${v.serverName}\n`;
  if (aliases.length) out += `  ServerAlias ${aliases.join(' ')}\n`;
  out += `  DocumentRoot ${q(mode.hostPath(root))}\n`;
  // The probe's rewrite rule marks it (PROBE_ENV): no expression is evaluated for a site's requests.
  out += `  Header always set ${PROBE_HEADER} "${token}" env=${PROBE_ENV}\n`;
  if (v.enableSecurityHeaders) out += '  SetEnvIf Request_URI ^ mailroom_secure=1\n';
  out += `  Alias /.well-known/acme-challenge/ ${q(`${mode.hostPath(APACHE_PATHS.acmeWebroot)}/.well-known/acme-challenge/`)}\n`;
  out += probeAndAcme(needsRewrite(h, tls));
  if (app && app.type !== 'Static' && v.status === 'active' && proxyPort === null) {
    out += '  RewriteRule ^ - [R=503,L]\n';
    out += `  ErrorDocument 503 ${errorDocumentText(APP_NOT_RUNNING_MESSAGE)}\n`;
  } else if (v.status === 'inactive') {
    out += '  RewriteRule ^ - [R=503,L]\n';
    out += `  ErrorDocument 503 ${errorDocumentText(INACTIVE_MESSAGE)}\n`;
  } else if (v.status === 'maintenance') {
    out += exceptIps(v.allowedIps);
    out += '  RewriteRule ^ - [R=503,L]\n';
    out += `  ErrorDocument 503 ${errorDocumentText(v.maintenanceMessage || DEFAULT_MAINTENANCE_MESSAGE)}\n`;
    out += `  Header always set Retry-After "${MAINTENANCE_RETRY_AFTER}" "expr=%{REQUEST_STATUS} == 503"\n`;
  }
  if (!tls && v.sslEnabled && v.redirectHttpToHttps) {
    const port = servedPort(mode, v.sslPort ?? 443);
    // Already HTTPS at a trusted TLS-terminating proxy (SSL Offloading sets it): no redirect loop.
    out += '  RewriteCond %{ENV:mailroom_https} !=1\n';
    out += `  RewriteRule ^ https://%{SERVER_NAME}${port === 443 ? '' : `:${port}`}%{REQUEST_URI} [R=301,L]\n`;
  }
  if (v.enableRateLimiting) {
    const base = 1_000_000 + h.id * 10;
    out += '  SecRuleEngine On\n';
    // Mailroom's probe and ACME challenges are not the site's traffic: never counted or refused.
    out += `  SecRule REQUEST_URI "@beginsWith /.well-known/" "id:${base + 2},phase:1,pass,nolog,skip:2"\n`;
    out += `  SecAction "id:${base},phase:1,nolog,pass,initcol:ip=%{REMOTE_ADDR}_vh${h.id},setvar:ip.mr_hits=+1,expirevar:ip.mr_hits=${v.rateLimitWindow}"\n`;
    out += `  SecRule IP:MR_HITS "@gt ${v.rateLimitRequests}" "id:${base + 1},phase:1,deny,status:429,log,msg:'Mailroom rate limit: ${v.rateLimitRequests} requests per ${v.rateLimitWindow} s',setenv:mailroom_limited=1"\n`;
    out += `  Header always set Retry-After "${v.rateLimitWindow}" env=mailroom_limited\n`;
  }
  if (v.enableGzip) out += `  AddOutputFilterByType DEFLATE ${GZIP_TYPES}\n`;
  if (v.enableCaching) {
    out += '  ExpiresActive On\n';
    out += `  ExpiresDefault "access plus ${v.cacheExpiry} seconds"\n`;
  }
  out += phpLines(h);
  for (const [name, value] of Object.entries(h.appEnv ?? {}))
    if (/^[A-Za-z_][A-Za-z0-9_]*$/.test(name) && SAFE_ENV_VALUE(value))
      out += `  SetEnv ${name} "${value}"\n`;
  if (proxyPort !== null) {
    // The app's running release on loopback; Mailroom's probe and ACME challenges stay Apache's.
    out += '  ProxyPreserveHost On\n';
    out += '  ProxyPass /.well-known/ !\n';
    const members = app?.balancerPorts?.length ? app.balancerPorts : null;
    if (members) out += balancerLines(h.id, members);
    else {
      out += `  ProxyPass / http://127.0.0.1:${proxyPort}/ retry=0\n`;
      out += `  ProxyPassReverse / http://127.0.0.1:${proxyPort}/\n`;
    }
  }
  if (tls && h.tls) {
    out += '  SSLEngine on\n';
    out += `  SSLCertificateFile ${q(h.tls.certificateFile)}\n`;
    out += `  SSLCertificateKeyFile ${q(h.tls.keyFile)}\n`;
    if (h.tls.chainFile) out += `  SSLCertificateChainFile ${q(h.tls.chainFile)}\n`;
    out += '  SetEnvIf Request_URI ^ mailroom_https=1\n';
  }
  out += `  <Directory ${q(mode.hostPath(root))}>\n`;
  out += '    Options SymLinksIfOwnerMatch\n';
  out += `    AllowOverride ${v.enableRewrite ? 'FileInfo' : 'None'}\n`;
  out += '    <RequireAll>\n';
  if (v.enableAccessControl && v.allowedIps.length) out += `      Require ip ${v.allowedIps.join(' ')}\n`;
  else out += '      Require all granted\n';
  if (v.enableAccessControl && v.blockedIps.length) out += `      Require not ip ${v.blockedIps.join(' ')}\n`;
  out += '    </RequireAll>\n';
  out += '  </Directory>\n';
  return out;
}

/** Member slots of an application's balancer: Max Instances' upper bound. */
export const BALANCER_SLOTS = 100;

/** The balancer of a host's application instances (named after the host's id, unique per server). */
export const balancerName = (hostId: number) => `balancer://mailroom-app-${hostId}`;

/**
 * Enable Load Balancing: mod_proxy_balancer over every running instance (byrequests, each member
 * retried at once after an error: an instance that is stopped is never in the set a reload renders).
 */
function balancerLines(hostId: number, ports: number[]): string {
  const name = balancerName(hostId);
  let out = `  <Proxy "${name}">\n`;
  for (const p of ports) out += `    BalancerMember http://127.0.0.1:${p} retry=0\n`;
  // A fixed number of member slots (MAX_INSTANCES in all): Apache keeps a balancer's shared slots
  // across a graceful reload, so a set that grows (scale-up) must fit in the slots it started with.
  out += `    ProxySet lbmethod=byrequests growth=${Math.max(0, BALANCER_SLOTS - ports.length)}\n`;
  out += '  </Proxy>\n';
  out += `  ProxyPass / ${name}/\n`;
  out += `  ProxyPassReverse / ${name}/\n`;
  return out;
}

/**
 * PHP through the site's own PHP-FPM pool (mod_proxy_fcgi); a version that is not installed never
 * serves the scripts' source: .php is refused until it is.
 */
function phpLines(h: VhostRenderInput): string {
  if (!h.php) return '';
  if ('missing' in h.php)
    return `  # PHP ${h.php.missing} is not installed: scripts are refused, never sent as text.\n  <FilesMatch "\\.php$">\n    Require all denied\n  </FilesMatch>\n`;
  return `  <FilesMatch "\\.php$">\n    SetHandler "proxy:unix:${h.php.socket}|fcgi://localhost"\n  </FilesMatch>\n`;
}

export interface RenderedVhost {
  files: { path: string; content: string; mode?: number }[];
  probe: VhostProbe;
  /** First line of the custom directives in the sites-available file (1-based), for Apache's "line N". */
  customStartLine: number | null;
}

const HEADER = (domain: string) =>
  `# Rendered by Mailroom for the virtual host ${domain}. Do not edit: Mailroom overwrites this file.\n`;

/** The site's file (sites-available) and its enabled entry; one file per host. */
export function renderVhost(h: VhostRenderInput, mode: ApacheMode): RenderedVhost {
  const v = h.values;
  const port = servedPort(mode, v.port);
  const sslPort = v.sslEnabled ? servedPort(mode, v.sslPort ?? 443) : null;
  const ip = v.ipAddress;
  const custom = v.customDirectives.trim() === '' ? '' : indentDirectives(v.customDirectives);
  const build = (token: string) => {
    let text = HEADER(v.domain);
    let customStartLine: number | null = null;
    const side = (p: number, tls: boolean) => {
      text += `<VirtualHost ${ip}:${p}>\n`;
      text += body(h, mode, tls, token);
      if (custom) {
        text += '  # Custom Directives\n';
        customStartLine ??= text.split('\n').length;
        text += custom + '\n';
      }
      text += '</VirtualHost>\n';
    };
    side(port, false);
    if (sslPort !== null && h.tls) side(sslPort, true);
    return { text, customStartLine };
  };
  // The probe token names this generation of the file: a reload that did not take is seen.
  const gen = createHash('sha256').update(build('').text).digest('hex').slice(0, 12);
  const token = `${v.domain};${gen}`;
  const { text, customStartLine } = build(token);
  const targets = [{ port, tls: false }];
  if (sslPort !== null && h.tls) targets.push({ port: sslPort, tls: true });
  return {
    files: [
      {
        path: siteAvailablePath(v.domain),
        content: text,
        // An application's variables (database credentials) are for Apache's root master only.
        ...(Object.keys(h.appEnv ?? {}).length ? { mode: 0o600 } : {}),
      },
      {
        path: siteEnabledPath(v.domain),
        content: `Include ${siteAvailablePath(v.domain).replace(`${APACHE_PATHS.dir}/`, '')}\n`,
      },
    ],
    probe: {
      domain: v.domain,
      names: names(v),
      address: ip === '*' ? '127.0.0.1' : ip,
      targets,
      token,
      fingerprint: null,
    },
    customStartLine,
  };
}
