import { searchRoutes } from '@mailroom/contract/search';
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../app-deps.ts';
import { domainScope } from '../../http/access-scope.ts';
import { registerRoute } from '../../http/register-route.ts';
import { search } from './search.repository.ts';

/** `GET /api/search?q=`: the console's global search over the server's data. */
export function registerSearch(app: FastifyInstance, deps: AppDeps): void {
  registerRoute(app, searchRoutes.search, async ({ query, request }) =>
    search(deps.database.db, query.q, query.limit, domainScope(request)),
  );
}
