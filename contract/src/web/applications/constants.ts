/** Spec 3 §3.1: the application types, in the spec's order. */
export const APP_TYPES = [
  'Angular',
  'PHP',
  'Node.js',
  'Python',
  'Static',
  'Roundcube',
  'WordPress',
  'Drupal',
] as const;
export type AppType = (typeof APP_TYPES)[number];
/** The types Mailroom deploys today (all of the spec's); others would be refused with `appMessages.typeNotSupported`. */
export const APP_TYPES_SUPPORTED: readonly AppType[] = [...APP_TYPES];
/** Types whose release is a process (Start Command required), proxied to by Apache. */
export const APP_PROCESS_TYPES: readonly AppType[] = ['Node.js', 'Python'];
/**
 * Angular: the Build Command writes the built site to `dist/` in the release folder (index.html at
 * `dist/index.html`); Apache serves that folder, and a path that is no file answers its index.html.
 */
export const ANGULAR_OUTPUT_DIR = 'dist';

/**
 * PHP applications (no process, no proxy): Apache serves the release folder and hands `.php` to the
 * app's own PHP-FPM pool, running as the app's user. Roundcube, WordPress and Drupal are PHP
 * applications deployed from the repository the operator gives; each type knows its layout.
 */
export const APP_PHP_TYPES: readonly AppType[] = ['PHP', 'Roundcube', 'WordPress', 'Drupal'];
export const isPhpAppType = (t: string): boolean => (APP_PHP_TYPES as readonly string[]).includes(t);

/** A PHP application type's layout in its repository. */
export interface PhpAppLayout {
  /**
   * Folders kept across releases: they live in the app's data folder (`<Deployment Path>/data`)
   * and each release links to them (what the repository has there seeds it once).
   */
  persist: readonly string[];
  /**
   * The configuration file kept across releases (in the data folder, linked into each release):
   * made once from `sample` in the repository, reading the database credentials from the
   * environment variables `env` (getenv); edit it there, never in a release. Null: none.
   */
  config: { file: string; sample: string; env: readonly string[] } | null;
  /** Every path that is no file answers this script (the app's own router). */
  frontController: boolean;
  /** Top-level folders Apache never serves (403). */
  deny: readonly string[];
  /** What the operator must provide, in plain words. */
  needs: string;
  /** Which Health Check Path answers 2xx for this type. */
  health: string;
}

export const PHP_APP_LAYOUTS: Record<'PHP' | 'Roundcube' | 'WordPress' | 'Drupal', PhpAppLayout> = {
  PHP: {
    persist: [],
    config: null,
    frontController: false,
    deny: [],
    needs:
      'Nothing beyond the repository; a database your code uses is yours to provide, its credentials given as Environment Variables (getenv in PHP).',
    health: '/, or a health.php of yours that answers 200 when the app can serve',
  },
  WordPress: {
    persist: ['wp-content/uploads'],
    config: {
      file: 'wp-config.php',
      sample: 'wp-config-sample.php',
      env: ['DB_NAME', 'DB_USER', 'DB_PASSWORD', 'DB_HOST'],
    },
    frontController: true,
    deny: [],
    needs:
      'A MySQL or MariaDB database and its user, made by you: give DB_NAME, DB_USER, DB_PASSWORD and DB_HOST as Environment Variables. Then open the site and finish the WordPress installation.',
    health:
      '/wp-admin/install.php: 200 once its database answers, before and after the installation (/ redirects to the installer until it is done)',
  },
  Drupal: {
    persist: ['sites/default/files'],
    config: {
      file: 'sites/default/settings.php',
      sample: 'sites/default/default.settings.php',
      env: ['DB_DRIVER', 'DB_NAME', 'DB_USER', 'DB_PASSWORD', 'DB_HOST', 'DB_PORT'],
    },
    frontController: true,
    deny: [],
    needs:
      'A database (MySQL/MariaDB, PostgreSQL or SQLite) and its user, made by you: give DB_DRIVER (mysql, pgsql or sqlite), DB_NAME, DB_USER, DB_PASSWORD, DB_HOST and DB_PORT as Environment Variables; the repository must hold Drupal with its vendor/ folder (composer install as the Build Command needs composer and its network). Then open the site and finish the Drupal installation.',
    health: '/core/install.php until Drupal is installed (/ redirects to it), then /',
  },
  Roundcube: {
    persist: ['temp', 'logs'],
    config: {
      file: 'config/config.inc.php',
      sample: 'config/config.inc.php.sample',
      env: ['ROUNDCUBE_DB_DSNW', 'ROUNDCUBE_IMAP_HOST', 'ROUNDCUBE_SMTP_HOST'],
    },
    frontController: false,
    deny: ['temp', 'logs', 'config', 'bin', 'SQL', 'installer'],
    needs:
      "A database for Roundcube (e.g. MySQL or PostgreSQL, or SQLite) with its schema (SQL/ in the repository), made by you: give ROUNDCUBE_DB_DSNW (e.g. mysql://user:password@localhost/roundcube) as an Environment Variable, and ROUNDCUBE_IMAP_HOST / ROUNDCUBE_SMTP_HOST for this server's IMAP and submission (e.g. localhost:143, localhost:587). The repository must hold Roundcube with its vendor/ folder (a release archive's tree).",
    health: '/ (its login page): 200 once its database answers',
  },
};

export const phpAppLayout = (type: string): PhpAppLayout | null =>
  isPhpAppType(type) ? PHP_APP_LAYOUTS[type as keyof typeof PHP_APP_LAYOUTS] : null;

/**
 * A PHP application's variables reach PHP as FastCGI parameters written in its Apache host
 * (getenv()/$_SERVER): a value cannot hold what Apache would read as quoting or a variable.
 */
export const PHP_ENV_UNSAFE_RE = /["\\]|\$\{/;

/** What the form says of a PHP type (kept files, what the operator provides: `phpAppHelp`). */
const PHP_NOTE =
  "Apache serves the release folder and runs its .php files in the app's own PHP-FPM pool, as the app's user, with the app's Memory Limit as PHP's memory_limit (no Start Command, no port).";

/**
 * The type-specific help of a PHP type, in plain words: what is kept across releases and where,
 * what the operator must provide, how the health check reaches it. Shown in the form and the log.
 */
export function phpAppHelp(type: string): { kept: string[]; needs: string; health: string } | null {
  const l = phpAppLayout(type);
  if (!l) return null;
  return {
    kept: [
      ...l.persist.map((f) => `${f}/`),
      ...(l.config
        ? [
            `${l.config.file} (made once from ${l.config.sample}; reads ${l.config.env.join(', ')} with getenv)`,
          ]
        : []),
    ],
    needs: l.needs,
    health: `Health Check Path: ${l.health}. A new release is asked through the pool before Apache switches to it.`,
  };
}

/** What each deployable type needs from the operator (shown in the form under Type). */
export const APP_TYPE_NOTES: Partial<Record<AppType, string>> = {
  'Node.js':
    "Mailroom runs the Start Command (e.g. node server.js) as the app's user with PORT set, and proxies the domain to it. Dependencies: give a Build Command (e.g. npm ci); this server installs nothing by itself.",
  Python:
    "Mailroom runs the Start Command (e.g. python3 app.py) as the app's user with PORT set, and proxies the domain to it; the app listens on 127.0.0.1:$PORT. Dependencies: a requirements.txt is not installed by itself: give a Build Command (e.g. python3 -m pip install --target vendor -r requirements.txt) and make sure pip can reach its index or a local wheel folder, or use only the standard library.",
  Static: "Apache serves the repository's files as they are (after the Build Command, when given).",
  PHP: PHP_NOTE,
  Roundcube: PHP_NOTE,
  WordPress: PHP_NOTE,
  Drupal: PHP_NOTE,
  Angular: `The Build Command (e.g. npx ng build) must write the site to ${ANGULAR_OUTPUT_DIR}/ in the repository folder (angular.json: "outputPath": { "base": "${ANGULAR_OUTPUT_DIR}", "browser": "" }). Apache serves ${ANGULAR_OUTPUT_DIR}/ and answers index.html for a path that is no file (deep links).`,
};
/** Spec 3 §2.3 type filter (value '' = all). */
export const APP_TYPE_FILTER = [
  { value: '', label: 'All Types' },
  { value: 'Angular', label: 'Angular' },
  { value: 'PHP', label: 'PHP' },
  { value: 'Node.js', label: 'Node.js' },
  { value: 'Python', label: 'Python' },
  { value: 'Static', label: 'Static' },
  { value: 'Roundcube', label: 'Roundcube' },
] as const;

/** Spec 3 §3.1 / §4: status of an application. */
export const APP_STATUSES = ['active', 'inactive', 'deploying', 'error'] as const;
export type AppStatus = (typeof APP_STATUSES)[number];
/** Spec 3 §2.3 status filter (value '' = all). */
export const APP_STATUS_FILTER = [
  { value: '', label: 'All Status' },
  { value: 'active', label: 'Active' },
  { value: 'inactive', label: 'Inactive' },
  { value: 'deploying', label: 'Deploying' },
  { value: 'error', label: 'Error' },
] as const;
/** Spec §4 toggle: active -> inactive, anything else -> active. */
export const toggledAppStatus = (s: AppStatus): 'active' | 'inactive' =>
  s === 'active' ? 'inactive' : 'active';

export const APP_ENVIRONMENTS = ['development', 'staging', 'production'] as const;
export const APP_CACHE_STRATEGIES = ['memory', 'redis', 'file', 'database'] as const;
export const APP_LOG_LEVELS = ['debug', 'info', 'warn', 'error'] as const;

/** Sections of the Add/Edit Web Application modal, in the spec's order (§2.3). */
export const APP_SECTIONS = [
  'Basic',
  'Repository',
  'SSL',
  'Deployment',
  'Monitoring',
  'Performance',
  'Security',
  'Scaling',
  'Maintenance',
  'Custom Configuration',
] as const;
