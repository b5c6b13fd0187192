import type { FastifyInstance } from 'fastify';

export interface RegisteredRoute {
  method: string;
  url: string;
  public: boolean;
  /** 'domain' | 'self' | null (administrators only). */
  access: string | null;
  domainFields: readonly string[];
}

/**
 * Keeps every route registered after this call in `app.routeList`, so tests can walk all of
 * them (none may skip the auth guard) and the CLI can list them. Call before any route.
 */
export function collectRoutes(app: FastifyInstance): void {
  const list: RegisteredRoute[] = [];
  app.decorate('routeList', list);
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const method of methods) {
      list.push({
        method: String(method),
        url: route.url,
        public: route.config?.public === true,
        access: route.config?.access ?? null,
        domainFields: route.config?.domainFields ?? [],
      });
    }
  });
}
