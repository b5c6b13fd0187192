import type { WebServerSettings } from '@mailroom/contract/web/settings';
import type { Kysely } from 'kysely';
import type { ApplyFile } from '../../../apply/file-set.ts';
import type { RenderSet } from '../../../apply/pipeline.ts';
import type { Database } from '../../../db/schema.ts';
import {
  type HostsSummary,
  renderDefaultSite,
  renderLocalMain,
  renderLogrotate,
  renderPorts,
  renderServerConf,
} from '../settings/apache-conf.renderer.ts';
import { readWebSettings } from '../settings/web-settings.repository.ts';
import { type AppServe, appServeByVhost } from '../applications/application.repository.ts';
import { allVhosts, rowValues, type VhostRow } from '../vhosts/vhost.repository.ts';
import { renderVhost, type VhostProbe, type VhostRenderInput } from '../vhosts/vhost-file.renderer.ts';
import {
  APACHE_PATHS,
  APACHE_USER,
  type ApacheMode,
  siteAvailablePath,
  siteEnabledPath,
} from './apache.layout.ts';
import { PHP_VERSIONS } from '@mailroom/contract/web/vhosts';
import { phpLocalMain, phpPoolPath, phpSocket } from '../php/php.layout.ts';
import { type PoolUser, renderLocalFpmMain, renderPool } from '../php/php-pool.renderer.ts';
import { phpSessionDir, renderPoolDefaults } from '../php/php-defaults.renderer.ts';
import type { WebTlsPolicy } from './web-tls-policy.rules.ts';
import { resolveDefaultCertificate } from '../settings/ssl-refusals.service.ts';

type Db = Kysely<Database>;

/** A certificate of the SSL area for a site: PEMs and what it covers (given by app.ts). */
export interface WebCertificate {
  certificatePem: string;
  chainPem: string;
  keyPem: string;
  names: string[];
  fingerprint: string;
}
export type WebTlsSource = (id: number, db: Db) => Promise<WebCertificate | null>;

export type { WebTlsPolicy };
export type WebTlsPolicySource = (db: Db) => Promise<WebTlsPolicy>;

/** Certificates written for the sites (relative to the Apache folder: the check tree finds them too). */
export const CERT_DIR = 'mailroom-certs';
const certFiles = (domain: string) => ({
  cert: `${APACHE_PATHS.dir}/${CERT_DIR}/${domain}.crt`,
  key: `${APACHE_PATHS.dir}/${CERT_DIR}/${domain}.key`,
  chain: `${APACHE_PATHS.dir}/${CERT_DIR}/${domain}.chain.crt`,
});
export const DEFAULT_CERT = {
  cert: `${APACHE_PATHS.dir}/${CERT_DIR}/_default.crt`,
  key: `${APACHE_PATHS.dir}/${CERT_DIR}/_default.key`,
};

export interface WebRenderContext {
  mode: ApacheMode;
  tls: WebTlsSource | null;
  /** The SSL settings for Apache's SSL directives (null: Apache's own defaults with old protocols off). */
  tlsPolicy?: WebTlsPolicySource | null;
  /** The command logrotate runs after rotating. */
  reloadCommand: string;
  /** Whether the HTTPS catch-all's self-signed certificate exists (made once, outside the pipeline). */
  defaultTls: boolean;
  /** PHP-FPM: the installed versions, and who a site's pool runs as (its own user, made as root). */
  php?: {
    installed: ReadonlySet<string>;
    poolUser: (id: number) => Promise<PoolUser | null>;
    /** The local master's own idle pool user (null: Mailroom's user). */
    idleUser: string | null;
  } | null;
  /** PHP applications (issue 20): their pool's user and their variables (given by the applications). */
  apps?: AppPhpHooks | null;
}

/** What the render asks of the applications feature for a PHP application's host. */
export interface AppPhpHooks {
  /** The app's own Unix user (made when missing; null: not root, Mailroom's user runs it). */
  user: (appName: string) => Promise<{ user: string; uid: number; gid: number } | null>;
  /** The variables of a sealed environment. */
  env: (sealed: string) => Record<string, string>;
}

/** A PHP application runs on the newest installed PHP-FPM (spec order: newest first). */
export const appPhpVersion = (installed: ReadonlySet<string>): (typeof PHP_VERSIONS)[number] | null =>
  PHP_VERSIONS.find((v) => installed.has(v)) ?? null;
/** The version named when none is installed (the Debian 12 one). */
export const APP_PHP_FALLBACK_VERSION = '8.2';
/** Memory Limit (Kubernetes units, 512Mi) as PHP's memory_limit (512M). */
export const phpMemoryOf = (limit: string) => limit.replace(/([KMG])i$/, '$1');

/** What a render says beside its files: the probes of each file and where custom directives start. */
export interface WebRender extends RenderSet {
  probes: Map<string, VhostProbe>;
  customLines: Map<string, { field: 'customDirectives'; start: number; domain: string }>;
  defaultProbe: VhostProbe;
  settings: WebServerSettings;
  /** The PHP session folders of the rendered pools (made, owned by the site's user, before the swap). */
  sessionFolders?: SessionFolder[];
}

/** A site's PHP session folder (system path) and the site whose user owns it. */
export interface SessionFolder {
  path: string;
  siteId: number;
  /** A PHP application's folder: its app user owns it (undefined: the site's user). */
  owner?: { uid: number; gid: number } | null;
}

/**
 * A host's values with its SSL Port: its own, or the SSL area's Server Port when left empty
 * (issue 19: the SSL settings' port is the HTTPS port of such hosts).
 */
export function hostValues(row: VhostRow, sslPort: number, https = true) {
  const v = rowValues(row);
  const w = v.sslPort === null || v.sslPort === undefined ? { ...v, sslPort } : v;
  // Enable HTTPS off (SSL settings): no host serves HTTPS or redirects to it; their SSL stays saved.
  return https ? w : { ...w, sslEnabled: false };
}

/** The certificate of the catch-all and of hosts with SSL on and no certificate of their own. */
type DefaultTls = NonNullable<HostsSummary['defaultTls']>;

function summary(
  rows: VhostRow[],
  defaultTls: DefaultTls | null,
  php: ReadonlySet<string>,
  apps: Map<number, AppServe>,
  sslPort: number,
  httpsOn: boolean,
): HostsSummary {
  const http = new Set<number>();
  const https = new Set<number>();
  let anyRateLimit = false;
  const phpVersions = new Set<string>();
  for (const r of rows) {
    const v = hostValues(r, sslPort, httpsOn);
    http.add(v.port);
    if (v.sslEnabled) https.add(v.sslPort ?? sslPort);
    if (v.enableRateLimiting) anyRateLimit = true;
    if (v.enablePhp && php.has(v.phpVersion)) phpVersions.add(v.phpVersion);
  }
  const appVersion = appPhpVersion(php);
  if (appVersion && [...apps.values()].some((a) => a.php)) phpVersions.add(appVersion);
  return {
    httpPorts: [...http],
    httpsPorts: [...https],
    anyRateLimit,
    phpVersions: [...phpVersions].sort(),
    anyProxy: [...apps.values()].some((a) => a.type !== 'Static'),
    anyBalancer: [...apps.values()].some((a) => !!a.balancerPorts?.length),
    anyAppEnv: [...apps.values()].some((a) => a.php),
    defaultTls: defaultTls && https.size ? defaultTls : null,
  };
}

const rel = (p: string) => p.replace(`${APACHE_PATHS.dir}/`, '');

/** The render input of one host: its certificate files when it serves HTTPS. */
async function hostInput(
  db: Db,
  ctx: WebRenderContext,
  row: VhostRow,
  files: ApplyFile[],
  app: AppServe | null,
  sslPort: number,
  settings: WebServerSettings,
  sessions: SessionFolder[],
  https: boolean,
  defaultTls: DefaultTls | null,
): Promise<{
  input: VhostRenderInput;
  fingerprint: string | null;
  php: { enablePhp: boolean; phpVersion: string };
}> {
  const v = hostValues(row, sslPort, https);
  let tls: VhostRenderInput['tls'] = null;
  let fingerprint: string | null = null;
  if (v.sslEnabled) {
    if (v.sslCertificateId !== null && ctx.tls) {
      const c = await ctx.tls(v.sslCertificateId, db);
      if (c) {
        const f = certFiles(v.domain);
        files.push({ path: f.cert, content: c.certificatePem, mode: 0o644 });
        files.push({ path: f.key, content: c.keyPem, mode: 0o600 });
        if (c.chainPem.trim()) files.push({ path: f.chain, content: c.chainPem, mode: 0o644 });
        tls = {
          certificateFile: rel(f.cert),
          keyFile: rel(f.key),
          chainFile: c.chainPem.trim() ? rel(f.chain) : null,
        };
        fingerprint = c.fingerprint;
      }
    } else if (v.sslCertificate && v.sslPrivateKey) {
      tls = {
        certificateFile: v.sslCertificate,
        keyFile: v.sslPrivateKey,
        chainFile: v.sslCertificateChain || null,
      };
    } else if (v.sslCertificateId === null && defaultTls) {
      // No certificate chosen: the SSL settings' default certificate (or Mailroom's self-signed one).
      tls = { ...defaultTls, chainFile: defaultTls.chainFile ?? null };
    }
  }
  let php: VhostRenderInput['php'] = null;
  let phpUsed: { enablePhp: boolean; phpVersion: string } = {
    enablePhp: v.enablePhp,
    phpVersion: v.phpVersion,
  };
  let appEnv: Record<string, string> | null = null;
  if (app?.php) {
    // A PHP application: its own pool, as the app's user, with its Memory Limit; its variables.
    const version = appPhpVersion(ctx.php?.installed ?? new Set());
    if (version && ctx.apps) {
      const u = await ctx.apps.user(app.php.appName);
      const values = {
        ...v,
        enablePhp: true,
        phpVersion: version,
        phpMemoryLimit: phpMemoryOf(app.php.memoryLimit),
      };
      const user = u ? { user: u.user, group: u.user, listenOwner: APACHE_USER } : null;
      files.push({
        path: phpPoolPath(version, v.domain),
        content: renderPool(values, user, ctx.mode) + renderPoolDefaults(settings, v.domain, ctx.mode),
      });
      sessions.push({
        path: phpSessionDir(settings, v.domain),
        siteId: Number(row.id),
        owner: u ? { uid: u.uid, gid: u.gid } : null,
      });
      php = { socket: ctx.mode.hostPath(phpSocket(v.domain)) };
      phpUsed = { enablePhp: true, phpVersion: version };
      appEnv = ctx.apps.env(app.php.envSealed);
    } else {
      php = { missing: APP_PHP_FALLBACK_VERSION };
      phpUsed = { enablePhp: false, phpVersion: v.phpVersion };
    }
  } else if (v.enablePhp) {
    if (ctx.php?.installed.has(v.phpVersion)) {
      const user = await ctx.php.poolUser(Number(row.id));
      files.push({
        path: phpPoolPath(v.phpVersion, v.domain),
        content: renderPool(v, user, ctx.mode) + renderPoolDefaults(settings, v.domain, ctx.mode),
      });
      sessions.push({ path: phpSessionDir(settings, v.domain), siteId: Number(row.id) });
      php = { socket: ctx.mode.hostPath(phpSocket(v.domain)) };
    } else php = { missing: v.phpVersion };
  }
  return { input: { id: Number(row.id), values: v, tls, php, app, appEnv }, fingerprint, php: phpUsed };
}

/** The pool files a host may have left under the versions it does not use now. */
function stalePools(v: { domain: string; enablePhp: boolean; phpVersion: string } | null, domain: string) {
  return PHP_VERSIONS.filter((ver) => !v || !v.enablePhp || ver !== v.phpVersion).map((ver) =>
    phpPoolPath(ver, domain),
  );
}

/**
 * Renders Apache's files from the database. `only`: the hosts whose files to render (a change of
 * one host renders its file and the server-wide ones, never the other 999); absent: every host.
 * `removed`: hosts whose files go.
 */
export async function renderWeb(
  db: Db,
  ctx: WebRenderContext,
  opts: { only?: string[]; removed?: string[] } = {},
): Promise<WebRender> {
  const settings = await readWebSettings(db);
  const rows = await allVhosts(db);
  const apps = await appServeByVhost(db);
  // The SSL settings first: their Server Port is the HTTPS port of hosts that leave theirs empty.
  const policy = ctx.tlsPolicy && rows.some((r) => rowValues(r).sslEnabled) ? await ctx.tlsPolicy(db) : null;
  const sslPort = policy?.extras?.serverPort ?? 443;
  const https = policy?.extras?.https !== false;
  const chosen = https ? await resolveDefaultCertificate(policy?.extras?.defaultCertificate) : null;
  const defaultTls: DefaultTls | null =
    chosen ??
    (ctx.defaultTls ? { certificateFile: rel(DEFAULT_CERT.cert), keyFile: rel(DEFAULT_CERT.key) } : null);
  const hosts = summary(rows, defaultTls, ctx.php?.installed ?? new Set(), apps, sslPort, https);
  if (hosts.httpsPorts.length && policy) hosts.tlsPolicy = policy;
  // Enable HTTPS off: nothing counts as HTTPS, not even a request a trusted proxy ended TLS for.
  hosts.offloadingProxies = https ? (policy?.extras?.offloadingProxies ?? null) : null;
  const files: ApplyFile[] = [];
  const remove: string[] = [];
  const probes = new Map<string, VhostProbe>();
  const customLines: WebRender['customLines'] = new Map();
  const sessionFolders: SessionFolder[] = [];
  const wanted = opts.only ? new Set(opts.only) : null;
  for (const row of rows) {
    if (wanted && !wanted.has(row.domain)) continue;
    const { input, fingerprint, php } = await hostInput(
      db,
      ctx,
      row,
      files,
      apps.get(Number(row.id)) ?? null,
      sslPort,
      settings,
      sessionFolders,
      https,
      hosts.defaultTls,
    );
    if (wanted) remove.push(...stalePools({ domain: row.domain, ...php }, row.domain));
    const r = renderVhost(input, ctx.mode);
    files.push(...r.files);
    probes.set(siteAvailablePath(row.domain), {
      ...r.probe,
      fingerprint: r.probe.targets.some((t) => t.tls) ? fingerprint : null,
    });
    if (r.customStartLine !== null)
      customLines.set(siteAvailablePath(row.domain), {
        field: 'customDirectives',
        start: r.customStartLine,
        domain: row.domain,
      });
  }
  const serverConf = renderServerConf(settings, hosts, ctx.mode);
  const def = renderDefaultSite(settings, hosts, ctx.mode, serverConf);
  files.push({ path: APACHE_PATHS.confAvailable, content: serverConf });
  files.push({ path: APACHE_PATHS.confEnabled, content: `Include ${rel(APACHE_PATHS.confAvailable)}\n` });
  files.push({ path: APACHE_PATHS.ports, content: renderPorts(settings, hosts, ctx.mode) });
  files.push({ path: `${APACHE_PATHS.sitesAvailable}/${APACHE_PATHS.defaultSite}`, content: def.content });
  files.push({
    path: `${APACHE_PATHS.sitesEnabled}/${APACHE_PATHS.defaultSite}`,
    content: `Include ${rel(`${APACHE_PATHS.sitesAvailable}/${APACHE_PATHS.defaultSite}`)}\n`,
  });
  if (!ctx.mode.system) {
    files.push({ path: APACHE_PATHS.main, content: renderLocalMain(ctx.mode) });
    // The local PHP-FPM masters, one per version a site uses (kept once made: the master stays valid).
    for (const ver of hosts.phpVersions ?? [])
      files.push({
        path: phpLocalMain(ver),
        content: renderLocalFpmMain(ver, ctx.mode, ctx.php?.idleUser ?? null),
      });
  }
  if (settings.logRotate)
    files.push({
      path: APACHE_PATHS.logrotate,
      content: renderLogrotate(settings, ctx.mode, ctx.reloadCommand),
    });
  else remove.push(APACHE_PATHS.logrotate);
  for (const domain of opts.removed ?? []) {
    const f = certFiles(domain);
    remove.push(siteAvailablePath(domain), siteEnabledPath(domain), f.cert, f.key, f.chain);
    remove.push(...stalePools(null, domain));
  }
  return { files, remove, probes, customLines, defaultProbe: def.probe, settings, sessionFolders };
}
