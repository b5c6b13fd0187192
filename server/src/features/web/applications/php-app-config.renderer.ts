import { randomBytes } from 'node:crypto';

/**
 * The configuration file a PHP application type keeps across releases, made once from the sample
 * its repository ships: the database credentials are read from the app's environment variables
 * (getenv: Mailroom hands them to PHP with each request), and the secrets the sample leaves as
 * placeholders are filled with random values. Pure text in, text out (`secret` is injectable).
 */

/** A random secret without quotes or backslashes (safe inside a PHP single-quoted string). */
export const randomSecret = (length: number) =>
  randomBytes(length).toString('base64').replace(/[+/=]/g, 'x').slice(0, length);

const HEADER = "// Added by Mailroom: the database from the application's environment variables.";

/** Drops a closing `?>` at the end so lines can be appended as PHP. */
const openEnded = (text: string) => text.replace(/\?>\s*$/, '').replace(/\s*$/, '\n');

function wordpress(sample: string, secret: (n: number) => string): string {
  return sample
    .replace(/'database_name_here'/g, "getenv('DB_NAME')")
    .replace(/'username_here'/g, "getenv('DB_USER')")
    .replace(/'password_here'/g, "getenv('DB_PASSWORD')")
    .replace(/(define\(\s*'DB_HOST',\s*)'localhost'/g, "$1(getenv('DB_HOST') ?: 'localhost')")
    .replace(/'put your unique phrase here'/g, () => `'${secret(64)}'`);
}

function drupal(sample: string, secret: (n: number) => string): string {
  return (
    openEnded(sample) +
    `\n${HEADER}\n` +
    "$databases['default']['default'] = [\n" +
    "  'driver' => getenv('DB_DRIVER') ?: 'mysql',\n" +
    "  'database' => getenv('DB_NAME') ?: '',\n" +
    "  'username' => getenv('DB_USER') ?: '',\n" +
    "  'password' => getenv('DB_PASSWORD') ?: '',\n" +
    "  'host' => getenv('DB_HOST') ?: 'localhost',\n" +
    "  'port' => getenv('DB_PORT') ?: '',\n" +
    "  'prefix' => '',\n" +
    '];\n' +
    `$settings['hash_salt'] = '${secret(64)}';\n`
  );
}

function roundcube(sample: string, secret: (n: number) => string): string {
  return (
    openEnded(sample) +
    `\n${HEADER}\n` +
    "if (getenv('ROUNDCUBE_DB_DSNW')) $config['db_dsnw'] = getenv('ROUNDCUBE_DB_DSNW');\n" +
    "if (getenv('ROUNDCUBE_IMAP_HOST')) $config['imap_host'] = getenv('ROUNDCUBE_IMAP_HOST');\n" +
    "if (getenv('ROUNDCUBE_SMTP_HOST')) $config['smtp_host'] = getenv('ROUNDCUBE_SMTP_HOST');\n" +
    `$config['des_key'] = '${secret(24)}';\n`
  );
}

/** The kept configuration file of a type, from its sample (null: the type keeps none). */
export function keptConfigFrom(
  type: string,
  sample: string,
  secret: (n: number) => string = randomSecret,
): string | null {
  switch (type) {
    case 'WordPress':
      return wordpress(sample, secret);
    case 'Drupal':
      return drupal(sample, secret);
    case 'Roundcube':
      return roundcube(sample, secret);
    default:
      return null;
  }
}
