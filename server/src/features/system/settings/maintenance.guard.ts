import { MAINTENANCE_CODE, MAINTENANCE_MESSAGE } from '@mailroom/contract/system-admin';
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.ts';
import { errorBody } from '../../../http/errors.ts';
import { maintenanceOn } from './system-settings.service.ts';

const READS = new Set(['GET', 'HEAD', 'OPTIONS']);
/** The calls that keep working in maintenance mode: the settings (to turn it off) and sign-in/out. */
const ALLOWED = [/^\/api\/system\/settings(\/|$)/, /^\/auth\//];

/**
 * Maintenance mode: every state-changing call answers 503 with a clear message; reads, sign-in and
 * the settings call that turns it off keep working.
 */
export function installMaintenanceGuard(app: FastifyInstance, db: Kysely<Database>): void {
  // Callback style: reads (most requests) pass without a promise.
  app.addHook('preHandler', (request, reply, done) => {
    if (READS.has(request.method)) return done();
    // The route's own path: `/api/index.php?path=…` calls reach the same route.
    const url = request.routeOptions.url ?? request.url;
    if (!url.startsWith('/api/') || ALLOWED.some((re) => re.test(url))) return done();
    maintenanceOn(db).then(
      (on) => {
        if (!on) return done();
        void reply
          .code(503)
          .header('retry-after', '60')
          .send(errorBody(MAINTENANCE_CODE, MAINTENANCE_MESSAGE, null, true));
      },
      (err: unknown) => done(err instanceof Error ? err : new Error(String(err))),
    );
  });
}
