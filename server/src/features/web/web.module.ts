import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../app-deps.ts';
import { registerRetry } from '../../apply/retry-registry.ts';
import { WebSettingsService } from './settings/web-settings.service.ts';
import { WEB_TARGET } from './stack/apache-target.ts';
import { WebContext } from './stack/web-context.ts';
import type { WebTlsSource } from './stack/web-render.ts';
import { registerWebRoutes } from './web.routes.ts';
import { VhostService } from './vhosts/vhost.service.ts';

export interface WebOptions {
  /** The SSL area's certificates for the sites (wired in app.ts; the features do not import each other). */
  tls?: WebTlsSource | null;
}

export interface WebHandle {
  ctx: WebContext;
}

/** Web hosting (issue 19): virtual hosts and Apache as a target of the one apply pipeline. */
export function registerWeb(app: FastifyInstance, deps: AppDeps, opts: WebOptions = {}): WebHandle {
  const ctx = new WebContext(deps, opts.tls ?? null);
  const vhosts = new VhostService(ctx);
  const settings = new WebSettingsService(ctx);
  registerRetry(deps, WEB_TARGET, async () => (await ctx.applyAll()).outcome);
  registerWebRoutes(app, ctx, vhosts, settings);
  return { ctx };
}
