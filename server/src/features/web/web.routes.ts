import { webSettingsRoutes, webSettingsMessages } from '@mailroom/contract/web/settings';
import { type WebDashboard, webStatsRoutes } from '@mailroom/contract/web/stats';
import { webMessages, webVhostRoutes } from '@mailroom/contract/web/vhosts';
import type { FastifyInstance } from 'fastify';
import { domainScope } from '../../http/access-scope.ts';
import { sendPage } from '../../http/list-headers.ts';
import { registerRoute } from '../../http/register-route.ts';
import type { WebSettingsService } from './settings/web-settings.service.ts';
import type { WebContext } from './stack/web.context.ts';
import { webCapabilities } from './stats/capabilities.service.ts';
import { sslHealthAnswer } from './ssl-health/ssl-health.service.ts';
import { webSslHealthRoutes } from '@mailroom/contract/web/ssl-health';
import { webSslMetricsRoutes } from '@mailroom/contract/web/ssl-metrics';
import { sslMetricsAnswer } from './stats/ssl-metrics.service.ts';
import { webDashboard } from './stats/web-stats.service.ts';
import type { VhostService } from './vhosts/vhost.service.ts';

/** HTTP only: request -> service -> answer. */
export function registerWebRoutes(
  app: FastifyInstance,
  ctx: WebContext,
  vhosts: VhostService,
  settings: WebSettingsService,
  applications: () => Promise<WebDashboard['applications']>,
): void {
  const r = webVhostRoutes;
  registerRoute(app, r.list, async ({ query, reply, request }) =>
    sendPage(reply, await vhosts.list(query, domainScope(request))),
  );
  registerRoute(app, r.get, async ({ params }) => vhosts.get(params.domain));
  registerRoute(app, webSslHealthRoutes.sslHealth, async () => sslHealthAnswer(ctx));
  registerRoute(app, webSslMetricsRoutes.sslMetrics, async () => sslMetricsAnswer(ctx));
  registerRoute(app, r.create, async ({ body, request }) => {
    request.auditTarget = body.domain;
    const vhost = await vhosts.create(body);
    return { success: true as const, message: webMessages.saved, vhost };
  });
  registerRoute(app, r.update, async ({ params, body }) => {
    const vhost = await vhosts.update(params.domain, body);
    return { success: true as const, message: webMessages.saved, vhost };
  });
  registerRoute(app, r.setStatus, async ({ params, body }) => {
    const vhost = await vhosts.setStatus(params.domain, body.status);
    return { success: true as const, message: webMessages.saved, vhost };
  });
  registerRoute(app, r.remove, async ({ params, body }) => {
    const out = await vhosts.remove(params.domain, body.keepFiles);
    return { success: true as const, ...out };
  });
  registerRoute(app, r.domains, async ({ request }) => {
    const page = await vhosts.list({ limit: 500 }, domainScope(request));
    return page.items.map((v) => ({
      domain: v.domain,
      status: v.status,
      sslEnabled: v.sslEnabled,
      documentRoot: v.documentRoot,
    }));
  });
  registerRoute(app, r.addDomain, async ({ body, request }) => {
    request.auditTarget = body.domain;
    await vhosts.addDomain(body.domain);
    return { success: true as const, message: webMessages.saved };
  });
  registerRoute(app, r.removeDomain, async ({ params }) => {
    await vhosts.remove(params.domain, true);
    return { success: true as const };
  });

  const s = webSettingsRoutes;
  registerRoute(app, s.get, async () => settings.get());
  registerRoute(app, s.save, async ({ body }) => ({
    success: true as const,
    message: webSettingsMessages.saved,
    settings: await settings.save(body),
  }));
  registerRoute(app, s.reset, async () => ({
    success: true as const,
    message: webSettingsMessages.reset,
    settings: await settings.reset(),
  }));

  registerRoute(app, webStatsRoutes.dashboard, async () => webDashboard(ctx, applications));
  registerRoute(app, webStatsRoutes.capabilities, async () => webCapabilities(ctx));
}
