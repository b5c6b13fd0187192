import { sslSettingsMessages } from '@mailroom/contract/ssl';
import type { WebCapabilities } from '@mailroom/contract/web/stats';
import { type WebServerSettings, webSettingsMessages } from '@mailroom/contract/web/settings';
import { PHP_VERSIONS, webMessages } from '@mailroom/contract/web/vhosts';
import { machineFileExists } from '../../../host/apache-host.ts';
import { modulePath, MODULES, type ModuleKey, RATE_LIMIT_MODULE } from '../stack/apache-modules.rules.ts';
import { neededModules } from '../settings/apache-conf.renderer.ts';
import { readWebSettings } from '../settings/web-settings.repository.ts';
import type { WebContext } from '../stack/web.context.ts';
import { allowedRoots } from '../vhosts/vhost.service.ts';

const NO_PHP_REASON =
  'No PHP-FPM is installed on this server (Debian package php8.2-fpm): PHP scripts are refused, never sent as text.';

async function installed(key: ModuleKey): Promise<boolean> {
  return machineFileExists(modulePath(MODULES[key]));
}

/** Settings the installed Apache cannot honour: field -> the refusal (names the module to install). */
export async function settingsRefusals(
  _ctx: WebContext,
  s: WebServerSettings,
): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  if (s.enableCompression && s.enableBrotli && !(await installed('brotli')))
    out.enableBrotli = webMessages.moduleMissing('mod_brotli', MODULES.brotli.package);
  if ((s.enableRateLimiting || s.enableIPBasedRateLimit) && !(await installed('security2')))
    out[s.enableRateLimiting ? 'enableRateLimiting' : 'enableIPBasedRateLimit'] = webMessages.moduleMissing(
      'mod_security2',
      MODULES.security2.package,
    );
  if (s.enablePHP && s.phpHandler !== 'php-fpm')
    out.phpHandler = webSettingsMessages.handlerUnavailable(s.phpHandler);
  return out;
}

/** What this server can do, and which fields are disabled with the reason. */
export async function webCapabilities(ctx: WebContext): Promise<WebCapabilities> {
  const host = ctx.deps.host;
  const apache = await host.which('apache2');
  let version: string | null = null;
  if (apache) {
    const r = await host.run(apache, ['-v']);
    version = /Server version:\s*(\S+)/.exec(r.stdout)?.[1] ?? null;
  }
  const settings = await readWebSettings(ctx.db);
  const used = new Set(
    neededModules(settings, {
      httpPorts: [80],
      httpsPorts: [443],
      anyRateLimit: true,
      anyProxy: true,
      defaultTls: null,
    }),
  );
  const shown: ModuleKey[] = [
    'rewrite',
    'headers',
    'deflate',
    'brotli',
    'expires',
    'ssl',
    'security2',
    'authz_host',
    'alias',
  ];
  const modules = await Promise.all(
    shown.map(async (k) => ({
      name: MODULES[k].name,
      installed: await installed(k),
      enabled: used.has(k),
      package: MODULES[k].package,
      purpose: MODULES[k].purpose,
    })),
  );
  const installedPhp = await ctx.php.installed();
  const phpVersions = PHP_VERSIONS.map((v) => ({
    version: v,
    installed: installedPhp.has(v),
    program: installedPhp.get(v) ?? null,
  }));
  const vhostFields: Record<string, string> = {};
  if (!installedPhp.size)
    for (const f of [
      'phpVersion',
      'phpMemoryLimit',
      'phpMaxExecutionTime',
      'phpUploadMaxFilesize',
      'phpPostMaxSize',
    ])
      vhostFields[f] = NO_PHP_REASON;
  const security = modules.find((m) => m.name === 'security2');
  if (!security?.installed) {
    const why = webMessages.moduleMissing('mod_security2', MODULES.security2.package);
    vhostFields.enableRateLimiting = why;
    vhostFields.rateLimitRequests = why;
    vhostFields.rateLimitWindow = why;
  }
  // Enable HTTPS off (SSL settings): no host serves HTTPS; the SSL section says why.
  if (ctx.tlsPolicy && (await ctx.tlsPolicy(ctx.db)).extras?.https === false)
    for (const f of [
      'sslEnabled',
      'sslPort',
      'redirectHttpToHttps',
      'sslCertificateId',
      'sslCertificate',
      'sslPrivateKey',
      'sslCertificateChain',
    ])
      vhostFields[f] = sslSettingsMessages.httpsOff;
  const settingsFields: Record<string, string> = {
    compressionLevel:
      'Apache sets the level per algorithm: Deflate Compression Level and Brotli Compression Level are used.',
    enableCaching:
      "Caching is each virtual host's Enable Caching and Cache Expiry (mod_expires); Apache keeps no server-side cache here (mod_cache would serve pages changed since).",
    cacheExpiry: "Each virtual host's Cache Expiry is used.",
    cacheMaxSize: 'Apache keeps no server-side cache here, so there is no size to limit.',
    enableGzipStatic: 'Serving precompressed .gz files is not built yet.',
    rateLimitDelay: 'mod_security2 refuses over-limit requests (429); it cannot slow them down.',
    enablePHP:
      "Each virtual host's Enable PHP switches PHP for it; there is no server-wide switch. The value is kept.",
    phpVersion: 'Each virtual host chooses its PHP Version among the installed ones. The value is kept.',
  };
  if (!modules.find((m) => m.name === 'brotli')?.installed)
    settingsFields.enableBrotli = webMessages.moduleMissing('mod_brotli', MODULES.brotli.package);
  if (!security?.installed)
    settingsFields.enableRateLimiting = webMessages.moduleMissing('mod_security2', MODULES.security2.package);
  return {
    apacheInstalled: apache !== null,
    apacheVersion: version,
    mode: ctx.mode.system ? 'system' : 'local',
    httpPort: ctx.mode.httpPort,
    httpsPort: ctx.mode.httpsPort,
    rateLimitModule: RATE_LIMIT_MODULE,
    modules,
    phpVersions,
    allowedRoots: await allowedRoots(ctx),
    vhostFields,
    settingsFields,
  };
}
