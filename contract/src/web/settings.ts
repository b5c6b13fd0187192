import { z } from 'zod';
import { fieldMessages } from '../messages.ts';
import { defineRoute } from '../route.ts';
import { emailField } from '../validators.ts';
import { PHP_VERSIONS } from './vhosts.ts';
import {
  formatInvalid,
  intField,
  lineField,
  pathField,
  requiredLine,
  sizeField,
  textField,
} from './fields.ts';

export const SERVER_TOKENS = ['Full', 'OS', 'Minimal', 'Minor', 'Major', 'ProductOnly'] as const;
export const SERVER_SIGNATURES = ['On', 'Off', 'Email'] as const;
export const X_FRAME_OPTIONS = ['DENY', 'SAMEORIGIN', 'ALLOW-FROM'] as const;
/** The eight standard Referrer-Policy values (spec: "8 standard values"). */
export const REFERRER_POLICIES = [
  'no-referrer',
  'no-referrer-when-downgrade',
  'origin',
  'origin-when-cross-origin',
  'same-origin',
  'strict-origin',
  'strict-origin-when-cross-origin',
  'unsafe-url',
] as const;
export const WEB_LOG_LEVELS = ['debug', 'info', 'notice', 'warn', 'error', 'crit', 'alert', 'emerg'] as const;
export const WEB_LOG_FORMATS = ['common', 'combined', 'referer', 'agent', 'custom'] as const;
export const LOG_ROTATE_FREQUENCIES = ['daily', 'weekly', 'monthly', 'yearly'] as const;
export const PHP_HANDLERS = ['mod_php', 'php-fpm', 'cgi', 'fastcgi'] as const;
/** session.cookie_samesite of the sites' pools (not in the spec's model: asked for by issue 19 item 4). */
export const PHP_COOKIE_SAMESITE = ['Lax', 'Strict', 'None'] as const;

/** Form sections of /web/settings, in the spec's order (§2.4). */
export const WEB_SETTINGS_SECTIONS = [
  'Server',
  'Performance',
  'Security',
  'Logging',
  'PHP',
  'Rate Limiting',
  'Advanced',
] as const;

export const webSettingsLabels = {
  serverName: 'Server Name',
  serverAdmin: 'Server Admin',
  serverRoot: 'Server Root',
  listenPort: 'Listen Port',
  maxRequestWorkers: 'Max Request Workers',
  maxConnectionsPerChild: 'Max Connections Per Child',
  keepAlive: 'Keep Alive',
  keepAliveTimeout: 'Keep Alive Timeout',
  maxKeepAliveRequests: 'Max Keep Alive Requests',
  timeout: 'Timeout',
  serverTokens: 'Server Tokens',
  serverSignature: 'Server Signature',
  enableCompression: 'Enable Compression',
  compressionLevel: 'Compression Level',
  enableCaching: 'Enable Caching',
  cacheExpiry: 'Cache Expiry',
  cacheMaxSize: 'Cache Max Size',
  enableETags: 'Enable ETags',
  enableLastModified: 'Enable Last-Modified',
  enableExpires: 'Enable Expires',
  expiresDefault: 'Expires Default',
  enableGzipStatic: 'Enable Gzip Static',
  enableDeflate: 'Enable Deflate',
  deflateCompressionLevel: 'Deflate Compression Level',
  enableBrotli: 'Enable Brotli',
  brotliCompressionLevel: 'Brotli Compression Level',
  enableSecurityHeaders: 'Enable Security Headers',
  enableHSTS: 'Enable HSTS',
  hstsMaxAge: 'HSTS Max Age',
  hstsIncludeSubdomains: 'HSTS Include Subdomains',
  hstsPreload: 'HSTS Preload',
  enableCSP: 'Enable CSP',
  cspPolicy: 'CSP Policy',
  enableXFrameOptions: 'Enable X-Frame-Options',
  xFrameOptions: 'X-Frame-Options',
  xFrameOptionsAllowFrom: 'X-Frame-Options Allow From',
  enableXContentTypeOptions: 'Enable X-Content-Type-Options',
  enableXSSProtection: 'Enable X-XSS-Protection',
  enableReferrerPolicy: 'Enable Referrer Policy',
  referrerPolicy: 'Referrer Policy',
  enableLogging: 'Enable Logging',
  logLevel: 'Log Level',
  logFormat: 'Log Format',
  customLogFormat: 'Custom Log Format',
  accessLogPath: 'Access Log Path',
  errorLogPath: 'Error Log Path',
  logRotate: 'Log Rotate',
  logRotateSize: 'Log Rotate Size',
  logRotateCount: 'Log Rotate Count',
  logRotateFrequency: 'Log Rotate Frequency',
  enablePHP: 'Enable PHP',
  phpVersion: 'PHP Version',
  phpHandler: 'PHP Handler',
  phpMemoryLimit: 'PHP Memory Limit',
  phpMaxExecutionTime: 'PHP Max Execution Time',
  phpMaxInputTime: 'PHP Max Input Time',
  phpUploadMaxFilesize: 'PHP Upload Max Filesize',
  phpPostMaxSize: 'PHP Post Max Size',
  phpMaxFileUploads: 'PHP Max File Uploads',
  phpSessionSavePath: 'PHP Session Save Path',
  phpSessionCookieLifetime: 'PHP Session Cookie Lifetime',
  phpSessionCookieSecure: 'PHP Session Cookie Secure',
  phpSessionCookieHttpOnly: 'PHP Session Cookie HttpOnly',
  phpSessionCookieSameSite: 'PHP Session Cookie SameSite',
  enableRateLimiting: 'Enable Rate Limiting',
  rateLimitRequests: 'Rate Limit Requests',
  rateLimitWindow: 'Rate Limit Window',
  rateLimitBurst: 'Rate Limit Burst',
  rateLimitDelay: 'Rate Limit Delay',
  enableIPBasedRateLimit: 'Enable IP-Based Rate Limit',
  ipRateLimitRequests: 'IP Rate Limit Requests',
  ipRateLimitWindow: 'IP Rate Limit Window',
  enableCustomDirectives: 'Enable Custom Directives',
  customDirectives: 'Custom Directives',
  enableRewriteEngine: 'Enable Rewrite Engine',
} as const;
export type WebSettingsField = keyof typeof webSettingsLabels;
const L = webSettingsLabels;

export const webSettingsMessages = {
  saved: 'Web server settings saved successfully!',
  loadFailed: 'Failed to load web server settings',
  resetConfirm: 'Are you sure you want to reset all web server settings to their default values?',
  reset: 'Web server settings were reset to their default values',
  saving: 'Saving...',
  allowFromRequired: 'X-Frame-Options Allow From is required for ALLOW-FROM',
  hstsPreloadRules:
    'HSTS Preload needs HSTS Include Subdomains and an HSTS Max Age of at least 31536000 (hstspreload.org)',
  sameSiteNoneNeedsSecure:
    'PHP Session Cookie SameSite None needs PHP Session Cookie Secure (browsers refuse it otherwise)',
  /** Lowering a server-wide PHP limit below what PHP hosts ask for is refused, naming them. */
  phpLimitBelowHosts: (label: string, value: string | number, hosts: readonly string[], more: number) =>
    `${label} cannot be lowered to ${value}: ${hosts.length + more === 1 ? 'a virtual host asks' : `${hosts.length + more} virtual hosts ask`} for more (${hosts.join(', ')}${more ? ` and ${more} more` : ''}). Lower their ${label} first.`,
  handlerUnavailable: (handler: string) =>
    `${handler} is not available on this server: PHP runs through php-fpm (one pool per site)`,
} as const;

const min1 = (label: string) => intField(label, 1);
const level = (label: string) => intField(label, 1, 9);
const choice = <T extends readonly [string, ...string[]]>(values: T, label: string) =>
  z.enum(values, { error: fieldMessages.required(label) });

/** One CSP policy line: printable, no quotes that would end the Header directive. */
const cspField = (label: string) =>
  lineField(label, 2000).refine((v) => !/["\\]/.test(v), formatInvalid(label));
const allowFromField = (label: string) =>
  lineField(label, 500).refine(
    (v) => v === '' || /^https?:\/\/[A-Za-z0-9.-]+(:\d{1,5})?\/?$/.test(v),
    formatInvalid(label),
  );

export const WebServerSettings = z
  .object({
    serverName: requiredLine(L.serverName, 253).refine(
      (v) => v === '' || /^[A-Za-z0-9]([A-Za-z0-9.-]{0,251}[A-Za-z0-9])?$/.test(v),
      formatInvalid(L.serverName),
    ),
    serverAdmin: emailField(L.serverAdmin),
    serverRoot: pathField(L.serverRoot),
    listenPort: intField(L.listenPort, 1, 65535),
    maxRequestWorkers: min1(L.maxRequestWorkers),
    maxConnectionsPerChild: min1(L.maxConnectionsPerChild),
    keepAlive: z.boolean(),
    keepAliveTimeout: min1(L.keepAliveTimeout),
    maxKeepAliveRequests: min1(L.maxKeepAliveRequests),
    timeout: min1(L.timeout),
    serverTokens: choice(SERVER_TOKENS, L.serverTokens),
    serverSignature: choice(SERVER_SIGNATURES, L.serverSignature),
    enableCompression: z.boolean(),
    compressionLevel: level(L.compressionLevel),
    enableCaching: z.boolean(),
    cacheExpiry: min1(L.cacheExpiry),
    cacheMaxSize: sizeField(L.cacheMaxSize),
    enableETags: z.boolean(),
    enableLastModified: z.boolean(),
    enableExpires: z.boolean(),
    expiresDefault: min1(L.expiresDefault),
    enableGzipStatic: z.boolean(),
    enableDeflate: z.boolean(),
    deflateCompressionLevel: level(L.deflateCompressionLevel),
    enableBrotli: z.boolean(),
    brotliCompressionLevel: level(L.brotliCompressionLevel),
    enableSecurityHeaders: z.boolean(),
    enableHSTS: z.boolean(),
    hstsMaxAge: min1(L.hstsMaxAge),
    hstsIncludeSubdomains: z.boolean(),
    hstsPreload: z.boolean(),
    enableCSP: z.boolean(),
    cspPolicy: cspField(L.cspPolicy),
    enableXFrameOptions: z.boolean(),
    xFrameOptions: choice(X_FRAME_OPTIONS, L.xFrameOptions),
    /** ALLOW-FROM's origin: rendered as CSP `frame-ancestors` (browsers ignore ALLOW-FROM). */
    xFrameOptionsAllowFrom: allowFromField(L.xFrameOptionsAllowFrom).default(''),
    enableXContentTypeOptions: z.boolean(),
    enableXSSProtection: z.boolean(),
    enableReferrerPolicy: z.boolean(),
    referrerPolicy: choice(REFERRER_POLICIES, L.referrerPolicy),
    enableLogging: z.boolean(),
    logLevel: choice(WEB_LOG_LEVELS, L.logLevel),
    logFormat: choice(WEB_LOG_FORMATS, L.logFormat),
    /** The LogFormat string when logFormat is custom. */
    customLogFormat: lineField(L.customLogFormat, 1000)
      .refine((v) => !/(^|[^\\])"/.test(v), formatInvalid(L.customLogFormat))
      .default(''),
    accessLogPath: pathField(L.accessLogPath),
    errorLogPath: pathField(L.errorLogPath),
    logRotate: z.boolean(),
    logRotateSize: sizeField(L.logRotateSize),
    logRotateCount: min1(L.logRotateCount),
    logRotateFrequency: choice(LOG_ROTATE_FREQUENCIES, L.logRotateFrequency),
    enablePHP: z.boolean(),
    phpVersion: choice(PHP_VERSIONS, L.phpVersion),
    phpHandler: choice(PHP_HANDLERS, L.phpHandler),
    phpMemoryLimit: sizeField(L.phpMemoryLimit),
    phpMaxExecutionTime: min1(L.phpMaxExecutionTime),
    phpMaxInputTime: min1(L.phpMaxInputTime),
    phpUploadMaxFilesize: sizeField(L.phpUploadMaxFilesize),
    phpPostMaxSize: sizeField(L.phpPostMaxSize),
    phpMaxFileUploads: min1(L.phpMaxFileUploads),
    phpSessionSavePath: pathField(L.phpSessionSavePath),
    phpSessionCookieLifetime: intField(L.phpSessionCookieLifetime, 0),
    phpSessionCookieSecure: z.boolean(),
    phpSessionCookieHttpOnly: z.boolean(),
    phpSessionCookieSameSite: choice(PHP_COOKIE_SAMESITE, L.phpSessionCookieSameSite).default('Lax'),
    enableRateLimiting: z.boolean(),
    rateLimitRequests: min1(L.rateLimitRequests),
    rateLimitWindow: min1(L.rateLimitWindow),
    rateLimitBurst: min1(L.rateLimitBurst),
    rateLimitDelay: min1(L.rateLimitDelay),
    enableIPBasedRateLimit: z.boolean(),
    ipRateLimitRequests: min1(L.ipRateLimitRequests),
    ipRateLimitWindow: min1(L.ipRateLimitWindow),
    enableCustomDirectives: z.boolean(),
    customDirectives: textField(L.customDirectives),
    enableRewriteEngine: z.boolean(),
  })
  .superRefine((v, ctx) => {
    if (v.enableXFrameOptions && v.xFrameOptions === 'ALLOW-FROM' && v.xFrameOptionsAllowFrom === '') {
      ctx.addIssue({
        code: 'custom',
        path: ['xFrameOptionsAllowFrom'],
        message: webSettingsMessages.allowFromRequired,
      });
    }
    if (v.enableHSTS && v.hstsPreload && (!v.hstsIncludeSubdomains || v.hstsMaxAge < 31536000)) {
      ctx.addIssue({ code: 'custom', path: ['hstsPreload'], message: webSettingsMessages.hstsPreloadRules });
    }
    // A folder name PHP and PHP-FPM take literally (';' is PHP's depth separator, a comment to PHP-FPM).
    if (!/^\/[A-Za-z0-9._/-]*$/.test(v.phpSessionSavePath))
      ctx.addIssue({
        code: 'custom',
        path: ['phpSessionSavePath'],
        message: formatInvalid(L.phpSessionSavePath),
      });
    if (v.phpSessionCookieSameSite === 'None' && !v.phpSessionCookieSecure)
      ctx.addIssue({
        code: 'custom',
        path: ['phpSessionCookieSameSite'],
        message: webSettingsMessages.sameSiteNoneNeedsSecure,
      });
    if (v.logFormat === 'custom' && v.customLogFormat === '') {
      ctx.addIssue({
        code: 'custom',
        path: ['customLogFormat'],
        message: fieldMessages.required(L.customLogFormat),
      });
    }
  });
export type WebServerSettings = z.output<typeof WebServerSettings>;
export type WebServerSettingsInput = z.input<typeof WebServerSettings>;

/** Spec 3 §9 defaults (values the spec does not give are marked). */
export const WEB_SETTINGS_DEFAULTS: WebServerSettings = {
  serverName: 'web-server',
  serverAdmin: 'webmaster@localhost.localdomain', // not in the spec
  serverRoot: '/var/www',
  listenPort: 80,
  maxRequestWorkers: 150,
  maxConnectionsPerChild: 1000,
  keepAlive: true,
  keepAliveTimeout: 5,
  maxKeepAliveRequests: 100,
  timeout: 300,
  serverTokens: 'Minimal',
  serverSignature: 'Off',
  enableCompression: true,
  compressionLevel: 6,
  enableCaching: true,
  cacheExpiry: 3600,
  cacheMaxSize: '1G',
  enableETags: true,
  enableLastModified: true,
  enableExpires: true,
  expiresDefault: 86400,
  enableGzipStatic: false,
  enableDeflate: true,
  deflateCompressionLevel: 6,
  enableBrotli: false,
  brotliCompressionLevel: 6,
  enableSecurityHeaders: true,
  enableHSTS: true,
  hstsMaxAge: 31536000,
  hstsIncludeSubdomains: false,
  hstsPreload: false,
  enableCSP: false,
  cspPolicy: "default-src 'self'",
  enableXFrameOptions: true,
  xFrameOptions: 'SAMEORIGIN',
  xFrameOptionsAllowFrom: '',
  enableXContentTypeOptions: true,
  enableXSSProtection: true,
  enableReferrerPolicy: true,
  referrerPolicy: 'strict-origin-when-cross-origin',
  enableLogging: true,
  logLevel: 'info',
  logFormat: 'combined',
  customLogFormat: '',
  accessLogPath: '/var/log/apache2/access.log',
  errorLogPath: '/var/log/apache2/error.log',
  logRotate: true,
  logRotateSize: '100M',
  logRotateCount: 10,
  logRotateFrequency: 'daily',
  enablePHP: true,
  phpVersion: '8.3',
  phpHandler: 'php-fpm',
  phpMemoryLimit: '128M',
  phpMaxExecutionTime: 30,
  phpMaxInputTime: 60,
  phpUploadMaxFilesize: '2M',
  phpPostMaxSize: '8M',
  phpMaxFileUploads: 20,
  phpSessionSavePath: '/var/lib/php/sessions',
  phpSessionCookieLifetime: 0,
  phpSessionCookieSecure: true,
  phpSessionCookieHttpOnly: true,
  phpSessionCookieSameSite: 'Lax', // not in the spec
  enableRateLimiting: false,
  rateLimitRequests: 100,
  rateLimitWindow: 60,
  rateLimitBurst: 20,
  rateLimitDelay: 1,
  enableIPBasedRateLimit: false,
  ipRateLimitRequests: 50,
  ipRateLimitWindow: 60,
  enableCustomDirectives: false,
  customDirectives: '',
  enableRewriteEngine: true,
};

export const WebSettingsSaved = z.object({
  success: z.literal(true),
  message: z.string(),
  settings: WebServerSettings,
});

const tags = ['web'];

export const webSettingsRoutes = {
  get: defineRoute({
    method: 'GET',
    path: 'web/settings',
    summary: "The web server settings (Apache's configuration as Mailroom renders it)",
    tags,
    response: WebServerSettings,
  }),
  save: defineRoute({
    method: 'POST',
    path: 'web/settings',
    summary:
      "Save the web server settings: rendered, checked by Apache (422 with Apache's words), reloaded and probed",
    tags,
    body: WebServerSettings,
    response: WebSettingsSaved,
    audit: 'web.settings.save',
  }),
  reset: defineRoute({
    method: 'POST',
    path: 'web/settings/reset',
    summary: 'Reset every web server setting to its default value (spec §9) and apply it',
    tags,
    response: WebSettingsSaved,
    audit: 'web.settings.reset',
  }),
};
