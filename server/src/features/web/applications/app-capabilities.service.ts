import {
  APP_TYPES,
  APP_TYPES_SUPPORTED,
  appLabels,
  appMessages,
  RELEASE_RETENTION,
  type WebAppCapabilities,
  type WebApplicationValues,
} from '@mailroom/contract/web/applications';
import { formatInvalid } from '@mailroom/contract/web/fields';
import { webMessages } from '@mailroom/contract/web/vhosts';
import { resolveExisting } from '../../../host/apache-host.ts';
import { conflict, fieldError } from '../../../http/errors.ts';
import { forbiddenDirective } from '../stack/custom-directives.rules.ts';
import type { WebContext } from '../stack/web.context.ts';
import { allowedRoots } from '../vhosts/vhost.service.ts';
import { nameOwner } from '../vhosts/vhost.repository.ts';
import { isRoot } from './app.layout.ts';

/** What this server does for applications, and the checks of a saved application. */

/** Characters Apache would read as quoting, escapes or variables: refused in a path. */
const UNSAFE_PATH = /["\\$`]/;

/** Fields shown in the form that Mailroom does not act on yet, and why (capabilities + 400 when turned on). */
export const NOT_BUILT: Partial<Record<keyof WebApplicationValues, string>> = {};

export async function appCapabilities(ctx: WebContext): Promise<WebAppCapabilities> {
  const unsupported: Record<string, string> = {};
  for (const t of APP_TYPES)
    if (!APP_TYPES_SUPPORTED.includes(t)) unsupported[t] = appMessages.typeNotSupported(t);
  return {
    supportedTypes: [...APP_TYPES_SUPPORTED],
    unsupportedTypes: unsupported,
    fields: { ...NOT_BUILT },
    allowedRoots: await allowedRoots(ctx),
    ownUser: isRoot()
      ? { enabled: true, reason: 'Each application runs as its own system user mr-app-<name>' }
      : { enabled: false, reason: 'Mailroom is not running as root: applications run as its user' },
    supervised: {
      enabled: true,
      reason:
        'Mailroom runs each live release itself and restarts it after a crash (1 s, 2 s, 4 s … up to 30 s)',
    },
    releaseRetention: RELEASE_RETENTION,
  };
}

/** The checks of an application's values beyond its schema (400/409 naming the field). */
export async function checkApp(
  ctx: WebContext,
  v: WebApplicationValues,
  exceptVhostId: number | null,
): Promise<void> {
  if (!APP_TYPES_SUPPORTED.includes(v.type)) throw fieldError('type', appMessages.typeNotSupported(v.type));
  for (const [field, why] of Object.entries(NOT_BUILT)) {
    if (v[field as keyof WebApplicationValues] === true)
      throw fieldError(field, appMessages.fieldNotSupported(appLabels[field as keyof typeof appLabels], why));
  }
  if (v.maxInstances < v.minInstances)
    throw fieldError('maxInstances', `${appLabels.maxInstances} must be at least ${appLabels.minInstances}`);
  if (v.enableAutoDeploy && !v.repository) throw fieldError('repository', appMessages.repositoryRequired);
  if (UNSAFE_PATH.test(v.deploymentPath))
    throw fieldError('deploymentPath', formatInvalid(appLabels.deploymentPath));
  if (v.logPath && UNSAFE_PATH.test(v.logPath)) throw fieldError('logPath', formatInvalid(appLabels.logPath));
  const roots = await allowedRoots(ctx);
  const real = await resolveExisting(ctx.deps.host, v.deploymentPath);
  const inside = (p: string) => roots.some((r) => p === r || p.startsWith(r + '/'));
  if (!inside(v.deploymentPath) || !inside(real) || roots.includes(real))
    throw fieldError('deploymentPath', appMessages.deploymentPathOutside(roots));
  // The app's output is appended there by Mailroom (as root in local mode): never a daemon's file.
  if (v.logPath) {
    const logReal = await resolveExisting(ctx.deps.host, v.logPath);
    const ok = (p: string) => p.endsWith('.log') && (inside(p) || p.startsWith(`/var/log/${v.name}/`));
    if (!ok(v.logPath) || !ok(logReal))
      throw fieldError('logPath', appMessages.logPathOutside(roots, v.name));
  }
  const bad = forbiddenDirective(v.customDirectives);
  if (bad) throw fieldError('customDirectives', webMessages.directiveForbidden(bad.line, bad.what));
  if (v.sslEnabled && (v.sslCertificate === '' || v.sslPrivateKey === ''))
    throw fieldError('sslCertificate', webMessages.certificateRequired);
  const clash = await nameOwner(ctx.db, [v.domain], exceptVhostId);
  if (clash && clash.domain !== v.domain)
    throw conflict(webMessages.nameInUse(v.domain, clash.domain), [
      { field: 'domain', message: webMessages.nameInUse(v.domain, clash.domain) },
    ]);
}
