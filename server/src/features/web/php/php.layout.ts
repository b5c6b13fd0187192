/**
 * Where the PHP-FPM pools of the sites live (system paths; the Host maps them under the data folder
 * in local mode). Debian layout: one file per site in /etc/php/<v>/fpm/pool.d. In local mode
 * Mailroom also renders the master's main file beside it and runs the master itself.
 */
export const phpPoolDir = (version: string) => `/etc/php/${version}/fpm/pool.d`;
export const phpPoolPath = (version: string, domain: string) =>
  `${phpPoolDir(version)}/mailroom-${domain}.conf`;
/** Local mode: the master's main file (system mode keeps Debian's php-fpm.conf). */
export const phpLocalMain = (version: string) => `/etc/php/${version}/fpm/mailroom-php-fpm.conf`;
export const PHP_RUN_DIR = '/run/php';
export const phpLocalPid = (version: string) => `${PHP_RUN_DIR}/mailroom-php${version}-fpm.pid`;
/** Local mode: the master's own pool (it needs one while no site uses this version). */
export const phpIdleSocket = (version: string) => `${PHP_RUN_DIR}/mailroom-php${version}-idle.sock`;
export const phpLocalLog = (version: string) => `/var/log/mailroom-php${version}-fpm.log`;
/** The socket Apache hands a site's .php requests to. */
export const phpSocket = (domain: string) => `${PHP_RUN_DIR}/mailroom-${domain}.sock`;

/** The Unix user of a site (its files and its PHP pool), made per site when Mailroom runs as root. */
export const siteUserName = (id: number) => `mr-site-${id}`;
