import { X509Certificate, createPrivateKey } from 'node:crypto';
import {
  PHP_LIMIT_FIELDS,
  type PhpLimits,
  phpLimitsAbove,
  VHOST_DEFAULTS,
  type VhostListQuery,
  type VirtualHostRequest,
  type VirtualHost,
  type VirtualHostValues,
  webMessages,
} from '@mailroom/contract/web/vhosts';
import { formatInvalid } from '@mailroom/contract/web/fields';
import os from 'node:os';
import {
  ensureSiteFolder,
  readMachineFile,
  removeSiteFolder,
  resolveExisting,
  userIds,
} from '../../../host/apache-host.ts';
import { secureSiteFolder } from '../../../host/php-fpm-host.ts';
import { siteUserName } from '../php/php.layout.ts';
import type { CursorPage } from '../../../http/cursor.ts';
import { AppError, conflict, fieldError, notFound } from '../../../http/errors.ts';
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.ts';
import { ERROR_CODES } from '@mailroom/contract/errors';
import { findAppByVhost } from '../applications/application.repository.ts';
import { readWebSettings } from '../settings/web-settings.repository.ts';
import { APACHE_USER } from '../stack/apache.layout.ts';
import { forbiddenDirective } from '../stack/custom-directives.rules.ts';
import type { WebContext } from '../stack/web.context.ts';
import { siteAvailablePath } from '../stack/apache.layout.ts';
import { dayFigures, vhostFigures } from '../stats/web-stats.service.ts';
import {
  allVhosts,
  deleteVhost,
  findByDomain,
  insertVhost,
  listVhostRows,
  nameOwner,
  rowValues,
  toVirtualHost,
  updateVhost,
  type VhostRow,
  hostNames,
} from './vhost.repository.ts';

const isRoot = () => typeof process.getuid === 'function' && process.getuid() === 0;

/** Characters Apache would read as quoting, escapes or variables: refused in a document root. */
const UNSAFE_PATH = /["\\$`]/;

const covers = (pattern: string, name: string) => {
  const p = pattern.toLowerCase();
  if (p === name) return true;
  if (!p.startsWith('*.')) return false;
  const dot = name.indexOf('.');
  return dot > 0 && name.slice(dot + 1) === p.slice(2);
};

/** The allowed roots of document roots: the Server Root of the web server settings. */
export async function allowedRoots(ctx: WebContext): Promise<string[]> {
  const s = await readWebSettings(ctx.db);
  return [s.serverRoot.replace(/\/+$/, '') || '/var/www'];
}

/** Checks everything Apache's check cannot see: names, paths, the certificate, custom directives. */
async function checkHost(ctx: WebContext, v: VirtualHostValues, exceptId: number | null): Promise<void> {
  if (UNSAFE_PATH.test(v.documentRoot)) throw fieldError('documentRoot', formatInvalid('Document Root'));
  const roots = await allowedRoots(ctx);
  const real = await resolveExisting(ctx.deps.host, v.documentRoot);
  const inside = (p: string) => roots.some((r) => p === r || p.startsWith(r + '/'));
  if (!inside(v.documentRoot) || !inside(real) || roots.includes(real))
    throw fieldError('documentRoot', webMessages.documentRootOutside(roots));
  const bad = forbiddenDirective(v.customDirectives);
  if (bad) throw fieldError('customDirectives', webMessages.directiveForbidden(bad.line, bad.what));
  const clash = await nameOwner(ctx.db, hostNames(v), exceptId);
  if (clash) {
    if (clash.name === v.domain && clash.domain === v.domain)
      throw conflict(webMessages.vhostExists(v.domain));
    throw conflict(webMessages.nameInUse(clash.name, clash.domain), [
      {
        field:
          clash.name === v.domain ? 'domain' : clash.name === v.serverName ? 'serverName' : 'serverAlias',
        message: webMessages.nameInUse(clash.name, clash.domain),
      },
    ]);
  }
  if (v.sslEnabled && v.sslCertificateId !== null) {
    if (!ctx.tls) throw fieldError('sslCertificateId', webMessages.certificateNotFound);
    const c = await ctx.tls(v.sslCertificateId, ctx.db);
    if (!c) throw fieldError('sslCertificateId', webMessages.certificateNotFound);
    checkCertificate('sslCertificateId', c.certificatePem, c.keyPem, hostNames(v), c.names);
  } else if (v.sslEnabled && v.sslCertificate && v.sslPrivateKey) {
    // Given by path: the same check as a certificate of the SSL area, on the files Apache will read.
    const [cert, key] = await Promise.all([
      readMachineFile(v.sslCertificate),
      readMachineFile(v.sslPrivateKey),
    ]);
    let names: string[] | null = null;
    try {
      if (cert) names = certificateNames(new X509Certificate(cert));
    } catch {
      names = null;
    }
    if (!cert || !names)
      throw fieldError('sslCertificate', webMessages.certificateFileUnreadable(v.sslCertificate));
    if (!key || !/PRIVATE KEY-----/.test(key))
      throw fieldError('sslPrivateKey', webMessages.certificateFileUnreadable(v.sslPrivateKey));
    checkCertificate('sslCertificate', cert, key, hostNames(v), names);
  }
}

/** The DNS names a certificate covers (its subjectAltName, else its CN). */
function certificateNames(x: X509Certificate): string[] {
  const san = (x.subjectAltName ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s.startsWith('DNS:'))
    .map((s) => s.slice(4).toLowerCase());
  if (san.length) return san;
  const cn = /(?:^|\n)CN=([^\n]+)/.exec(x.subject)?.[1];
  return cn ? [cn.toLowerCase()] : [];
}

/** A certificate must cover every name of the host and match its private key. */
function checkCertificate(
  field: string,
  certPem: string,
  keyPem: string,
  names: string[],
  covered: string[],
): void {
  const uncovered = names.filter((n) => !covered.some((p) => covers(p, n)));
  if (uncovered.length) throw fieldError(field, webMessages.certificateNotCovering(uncovered));
  let match = false;
  try {
    match = new X509Certificate(certPem).checkPrivateKey(createPrivateKey(keyPem));
  } catch {
    match = false;
  }
  if (!match) throw fieldError(field, webMessages.certificateKeyMismatch);
}

/**
 * The PHP limits of a request: what it gives, else `fallback`'s (a new host: the server-wide PHP
 * defaults of Server Configuration; an existing one: its own).
 */
function withPhpLimits(req: VirtualHostRequest, fallback: PhpLimits): VirtualHostValues {
  const out = { ...req } as VirtualHostValues;
  for (const f of PHP_LIMIT_FIELDS) (out as Record<string, unknown>)[f] = req[f] ?? fallback[f];
  return out;
}

/**
 * The server-wide PHP limits are the most a host with Enable PHP may ask for: above one, the host
 * is refused at its field with the server's value. A host's value unchanged since `before` (saved
 * before the rule existed) is kept. Inside the apply's transaction, under the web target's lock.
 */
async function checkPhpCeiling(db: Kysely<Database>, v: VirtualHostValues, before: PhpLimits | null) {
  const over = phpLimitsAbove(v, await readWebSettings(db)).filter(
    (o) => !before || before[o.field] !== v[o.field],
  );
  if (over[0]) throw fieldError(over[0].field, over[0].message);
}

/** Status and maintenance flag say the same: maintenance on <=> status maintenance. */
function normalise(v: VirtualHostValues, before: VirtualHostValues | null): VirtualHostValues {
  const out = { ...v, domain: v.domain.toLowerCase(), serverName: v.serverName.toLowerCase() };
  const flagChanged = before
    ? before.enableMaintenanceMode !== v.enableMaintenanceMode
    : v.enableMaintenanceMode;
  if (flagChanged && v.enableMaintenanceMode) out.status = 'maintenance';
  else if (flagChanged && !v.enableMaintenanceMode && v.status === 'maintenance') out.status = 'active';
  out.enableMaintenanceMode = out.status === 'maintenance';
  return out;
}

/** A site with Enable Backup as the system backups read it (wired in app.ts; no import between areas). */
export interface SiteBackup {
  id: number;
  domain: string;
  documentRoot: string;
  frequency: VirtualHostValues['backupFrequency'];
  retention: number;
}

export class VhostService {
  constructor(private readonly ctx: WebContext) {}

  private view(row: VhostRow, figures?: { traffic: number; responseTime: number | null }): VirtualHost {
    const siteUser = isRoot() ? siteUserName(Number(row.id)) : os.userInfo().username;
    return toVirtualHost(row, { siteUser, live: true, ...(figures ? { figures } : {}) });
  }

  /**
   * The document root belongs to the site's own user (group Apache's, mode 2750): the site's PHP
   * pool runs as that user and no other site's user can enter the folder. `deep`: a folder made
   * just now (its first index page too).
   */
  private async ownSiteFolder(row: VhostRow, deep: boolean): Promise<void> {
    const user = await this.ctx.siteUser(Number(row.id));
    const apache = await userIds(this.ctx.deps.host, APACHE_USER);
    if (!user || !apache) return;
    await secureSiteFolder(this.ctx.deps.host, row.document_root, user, apache.gid, deep);
  }

  /** A page of hosts with their last day's traffic and response time from Apache's access log. */
  async list(query: VhostListQuery, scope: readonly string[] | null): Promise<CursorPage<VirtualHost>> {
    const page = await listVhostRows(this.ctx.db, query as never, scope);
    const figures = await dayFigures(this.ctx);
    return {
      ...page,
      items: page.items.map((r) => this.view(r, vhostFigures(figures, rowValues(r).serverName))),
    };
  }

  async get(domain: string): Promise<VirtualHost> {
    const row = await findByDomain(this.ctx.db, domain);
    if (!row) throw notFound(webMessages.vhostNotFound(domain));
    return this.view(row);
  }

  /** Creates the document root (a first index page in it) when it does not exist yet. */
  private async siteFolder(v: VirtualHostValues): Promise<boolean> {
    const owner = await userIds(this.ctx.deps.host, APACHE_USER);
    const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
    return ensureSiteFolder(
      this.ctx.deps.host,
      v.documentRoot,
      isRoot ? owner : null,
      `<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>${v.domain}</title></head><body><h1>${v.domain}</h1></body></html>\n`,
    );
  }

  async create(req: VirtualHostRequest): Promise<VirtualHost> {
    const values = normalise(withPhpLimits(req, await readWebSettings(this.ctx.db)), null);
    await checkHost(this.ctx, values, null);
    // Before the folder is made; again in the transaction (a settings save may come between).
    await checkPhpCeiling(this.ctx.db, values, null);
    const made = await this.siteFolder(values);
    try {
      const report = await this.ctx.apply({
        change: async (trx) => {
          await checkPhpCeiling(trx, values, null);
          return insertVhost(trx, values);
        },
        only: () => [values.domain],
        audit: () => ({ target: values.domain, after: { ...values } }),
      });
      await this.ownSiteFolder(report.value, made);
      return this.view(report.value);
    } catch (err) {
      if (
        made &&
        err instanceof AppError &&
        err.code === ERROR_CODES.CHECK_FAILED &&
        err.statusCode === 422 &&
        !(await findByDomain(this.ctx.db, values.domain))
      )
        await removeSiteFolder(this.ctx.deps.host, values.documentRoot);
      throw err;
    }
  }

  async update(domain: string, req: VirtualHostRequest): Promise<VirtualHost> {
    const row = await findByDomain(this.ctx.db, domain);
    if (!row) throw notFound(webMessages.vhostNotFound(domain));
    const before = rowValues(row);
    const values = normalise(withPhpLimits(req, before), before);
    await checkHost(this.ctx, values, Number(row.id));
    await checkPhpCeiling(this.ctx.db, values, before.enablePhp ? before : null);
    const made = await this.siteFolder(values);
    const renamed = values.domain !== domain;
    const report = await this.ctx.apply({
      change: async (trx) => {
        await checkPhpCeiling(trx, values, before.enablePhp ? before : null);
        return updateVhost(trx, Number(row.id), values);
      },
      only: () => [values.domain],
      removed: renamed ? [domain] : [],
      audit: () => ({ target: domain, before, after: values }),
    });
    await this.ownSiteFolder(report.value, made);
    return this.view(report.value);
  }

  async setStatus(domain: string, status: VirtualHostValues['status']): Promise<VirtualHost> {
    const row = await findByDomain(this.ctx.db, domain);
    if (!row) throw notFound(webMessages.vhostNotFound(domain));
    const before = rowValues(row);
    const values = { ...before, status, enableMaintenanceMode: status === 'maintenance' };
    const report = await this.ctx.apply({
      change: async (trx) => updateVhost(trx, Number(row.id), values),
      only: () => [domain],
      audit: () => ({ target: domain, before: { status: before.status }, after: { status } }),
    });
    return this.view(report.value);
  }

  async remove(
    domain: string,
    keepFiles: boolean,
  ): Promise<{ filesRemoved: boolean; documentRoot: string; siteUser: string | null }> {
    const row = await findByDomain(this.ctx.db, domain);
    if (!row) throw notFound(webMessages.vhostNotFound(domain));
    const app = await findAppByVhost(this.ctx.db, Number(row.id));
    if (app)
      throw conflict(`${domain} serves the web application ${app.name}: delete the application instead`);
    const v = rowValues(row);
    await this.ctx.apply({
      change: async (trx) => deleteVhost(trx, Number(row.id)),
      only: () => [],
      removed: [domain],
      audit: () => ({ target: domain, before: { documentRoot: v.documentRoot }, details: { keepFiles } }),
    });
    if (!keepFiles) await removeSiteFolder(this.ctx.deps.host, v.documentRoot);
    // The site is gone (its pool with it): its Unix user goes too, kept files given to root first.
    const siteUser = await this.ctx
      .retireSiteUser(Number(row.id), keepFiles ? v.documentRoot : null)
      .catch((err: unknown) => `the site user was not removed: ${(err as Error).message}`);
    return { filesRemoved: !keepFiles, documentRoot: v.documentRoot, siteUser };
  }

  /**
   * Catalogue `web/domains/add {domain}`: a host with the spec's defaults under the Server Root
   * (its PHP limits: the server-wide PHP defaults).
   */
  async addDomain(domain: string): Promise<VirtualHost> {
    const [root] = await allowedRoots(this.ctx);
    // PHP: the spec's version when it is installed, else the newest installed one.
    const installed = [...(await this.ctx.php.installed()).keys()];
    const phpVersion = installed.includes(VHOST_DEFAULTS.phpVersion)
      ? VHOST_DEFAULTS.phpVersion
      : ((installed[0] as VirtualHostValues['phpVersion'] | undefined) ?? VHOST_DEFAULTS.phpVersion);
    const server = await readWebSettings(this.ctx.db);
    return this.create({
      ...VHOST_DEFAULTS,
      ...Object.fromEntries(PHP_LIMIT_FIELDS.map((f) => [f, server[f]])),
      phpVersion,
      domain,
      serverName: domain,
      documentRoot: `${root}/${domain}`,
    });
  }

  /** The document roots of the sites with Enable Backup: part of every system backup. */
  async backupPaths(): Promise<string[]> {
    return (await allVhosts(this.ctx.db))
      .map(rowValues)
      .filter((v) => v.enableBackup)
      .map((v) => v.documentRoot);
  }

  /** The sites with Enable Backup and their own schedule and retention: backups of their own. */
  async siteBackups(): Promise<SiteBackup[]> {
    return (await allVhosts(this.ctx.db)).flatMap((row) => {
      const v = rowValues(row);
      return v.enableBackup
        ? [
            {
              id: Number(row.id),
              domain: v.domain,
              documentRoot: v.documentRoot,
              frequency: v.backupFrequency,
              retention: v.backupRetention,
            },
          ]
        : [];
    });
  }

  /** Where the rendered file of a host is (system path). */
  fileOf(domain: string): string {
    return siteAvailablePath(domain);
  }
}
