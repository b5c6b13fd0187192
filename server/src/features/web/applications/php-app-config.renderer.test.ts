import { PHP_APP_LAYOUTS } from '@mailroom/contract/web/applications';
import { describe, expect, it } from 'vitest';
import { appDataDir, phpAppDirectives } from './app.layout.ts';
import { keptConfigFrom } from './php-app-config.renderer.ts';

const secret = (n: number) => 's'.repeat(n);

describe('the config file a PHP type keeps across releases', () => {
  it('WordPress: the sample placeholders become getenv() look-ups and distinct-by-call secrets', () => {
    const sample = `<?php
define( 'DB_NAME', 'database_name_here' );
define( 'DB_USER', 'username_here' );
define( 'DB_PASSWORD', 'password_here' );
define( 'DB_HOST', 'localhost' );
define( 'AUTH_KEY',         'put your unique phrase here' );
define( 'NONCE_SALT',       'put your unique phrase here' );
require_once ABSPATH . 'wp-settings.php';
`;
    const out = keptConfigFrom('WordPress', sample, secret)!;
    expect(out).toContain("define( 'DB_NAME', getenv('DB_NAME') );");
    expect(out).toContain("define( 'DB_USER', getenv('DB_USER') );");
    expect(out).toContain("define( 'DB_PASSWORD', getenv('DB_PASSWORD') );");
    expect(out).toContain("define( 'DB_HOST', (getenv('DB_HOST') ?: 'localhost') );");
    expect(out).not.toContain('put your unique phrase here');
    expect(out).toContain(`define( 'AUTH_KEY',         '${'s'.repeat(64)}' );`);
    // Real randomness: two salts of one file differ.
    const real = keptConfigFrom('WordPress', sample)!;
    const salts = [...real.matchAll(/'([A-Za-z0-9x]{64})'/g)].map((m) => m[1]);
    expect(salts).toHaveLength(2);
    expect(salts[0]).not.toBe(salts[1]);
    expect(real).toContain("require_once ABSPATH . 'wp-settings.php';");
  });

  it('Drupal: the database from the environment and a hash salt, after the sample (a closing ?> dropped)', () => {
    const out = keptConfigFrom('Drupal', "<?php\n$settings['hash_salt'] = '';\n?>\n", secret)!;
    expect(out).not.toContain('?>');
    expect(out).toContain("'database' => getenv('DB_NAME') ?: '',");
    expect(out).toContain("'driver' => getenv('DB_DRIVER') ?: 'mysql',");
    expect(out.indexOf(`$settings['hash_salt'] = '${'s'.repeat(64)}';`)).toBeGreaterThan(
      out.indexOf("$settings['hash_salt'] = '';"),
    );
  });

  it('Roundcube: the DSN and hosts from the environment when given, a 24-character des_key', () => {
    const out = keptConfigFrom(
      'Roundcube',
      "<?php\n$config['des_key'] = 'rcmail-!24ByteDESkey*Str';\n",
      secret,
    )!;
    expect(out).toContain(
      "if (getenv('ROUNDCUBE_DB_DSNW')) $config['db_dsnw'] = getenv('ROUNDCUBE_DB_DSNW');",
    );
    expect(out).toContain(`$config['des_key'] = '${'s'.repeat(24)}';`);
  });

  it('plain PHP keeps no config file; the layouts name the folders the backups take', () => {
    expect(keptConfigFrom('PHP', '<?php')).toBeNull();
    expect(PHP_APP_LAYOUTS.WordPress.persist).toEqual(['wp-content/uploads']);
    expect(PHP_APP_LAYOUTS.Drupal.persist).toEqual(['sites/default/files']);
    expect(PHP_APP_LAYOUTS.Roundcube.persist).toEqual(['temp', 'logs']);
    expect(appDataDir({ deploymentPath: '/var/www/apps/wp/' })).toBe('/var/www/apps/wp/data');
  });

  it('the Apache lines of each type: front controllers, folders never served', () => {
    expect(phpAppDirectives('WordPress')).toEqual(['FallbackResource /index.php']);
    expect(phpAppDirectives('Drupal')).toEqual(['FallbackResource /index.php']);
    expect(phpAppDirectives('PHP')).toEqual([]);
    expect(phpAppDirectives('Node.js')).toEqual([]);
    expect(phpAppDirectives('Roundcube')).toEqual([
      '<LocationMatch "^/(?:temp|logs|config|bin|SQL|installer)(?:/|$)">',
      '  Require all denied',
      '</LocationMatch>',
    ]);
  });
});
