import { ACME_WEB_SERVER_WEBROOT } from '@mailroom/contract/ssl';

/**
 * Where Mailroom's Apache files live (system paths; the Host maps them under the host root) and how
 * ports are served. Debian layout in both modes: `sites-available/` + `sites-enabled/`,
 * `conf-available/` + `conf-enabled/`, `ports.conf`. In local mode Mailroom also renders the main
 * `apache2.conf` (loopback ports, its own pid file and logs); in system mode Debian's stays.
 */
export const APACHE_DIR = '/etc/apache2';
export const APACHE_PATHS = {
  dir: APACHE_DIR,
  main: `${APACHE_DIR}/apache2.conf`,
  ports: `${APACHE_DIR}/ports.conf`,
  /** zz-: read after Debian's security.conf (ServerTokens OS), so the settings win. */
  confAvailable: `${APACHE_DIR}/conf-available/zz-mailroom.conf`,
  confEnabled: `${APACHE_DIR}/conf-enabled/zz-mailroom.conf`,
  sitesAvailable: `${APACHE_DIR}/sites-available`,
  sitesEnabled: `${APACHE_DIR}/sites-enabled`,
  /** The catch-all host: sorts before Debian's 000-default.conf, so unknown names never get a site. */
  defaultSite: '00-mailroom-default.conf',
  logrotate: '/etc/logrotate.d/mailroom-apache2',
  pidFile: '/run/apache2/mailroom-apache2.pid',
  runDir: '/run/apache2',
  /** One shared access log with %v (host) and %D (µs): the figures of the dashboard. */
  statsLog: '/var/log/apache2/mailroom-access.log',
  /** mod_security2's persistent collections (the rate limit counters), owned by the Apache user. */
  secDataDir: '/var/lib/mailroom/modsecurity',
  /** HTTP-01 answers Apache serves for every host (the SSL area's "through Mailroom's web server"). */
  acmeWebroot: ACME_WEB_SERVER_WEBROOT,
  modules: '/usr/lib/apache2/modules',
} as const;

/** The Unix user Apache's workers run as (Debian's). */
export const APACHE_USER = 'www-data';

export const siteFileName = (domain: string) => `mailroom-${domain}.conf`;
export const siteAvailablePath = (domain: string) => `${APACHE_PATHS.sitesAvailable}/${siteFileName(domain)}`;
export const siteEnabledPath = (domain: string) => `${APACHE_PATHS.sitesEnabled}/${siteFileName(domain)}`;

/** The ports Apache serves in this mode. */
export interface ApacheMode {
  system: boolean;
  /** Local mode: 80 is served here (MAILROOM_HTTP_PORT); system mode: 80. */
  httpPort: number;
  /** Local mode: 443 is served here (MAILROOM_HTTPS_PORT); system mode: 443. */
  httpsPort: number;
  /** Host paths (local mode: under the data folder's root). */
  hostPath: (systemPath: string) => string;
}

/** The port a configured port is served on: local mode moves 80/443 to the loopback ports. */
export function servedPort(mode: ApacheMode, port: number): number {
  if (mode.system) return port;
  if (port === 80) return mode.httpPort;
  if (port === 443) return mode.httpsPort;
  return port;
}

/** Local mode listens on loopback only; system mode on every address. */
export const listenAddress = (mode: ApacheMode, port: number) =>
  mode.system ? `${port}` : `127.0.0.1:${port}`;
