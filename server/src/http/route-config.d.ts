import 'fastify';
import type { RouteAccess } from '@mailroom/contract/route';
import type { RegisteredRoute } from './route-list.ts';
import type { SessionAdmin } from './sessions.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Open without a session (sign-in, status). */
    public?: boolean;
    /** Audit action recorded for state-changing calls. */
    audit?: string;
    /** Who besides administrators may call it (see `RouteDef.access`); absent: administrators only. */
    access?: RouteAccess;
    /** Where a 'domain' route names its domain (see `RouteDef.domainFields`). */
    domainFields?: readonly string[];
  }
  interface FastifyRequest {
    /** The signed-in administrator (set by the auth guard on /api routes). */
    admin: SessionAdmin | null;
    /** What a state-changing call acted on, for the audit log (defaults to the path parameters). */
    auditTarget: string | null;
    /** Extra audit details (never secrets). */
    auditDetails: Record<string, unknown> | null;
    /** Set when the handler already wrote its own audit line. */
    auditDone: boolean;
    /** A list read's validator (http/list-etag.ts), read before the list; null elsewhere. */
    listEtag: string | null;
    /** What the response cache did with this request (features/api-monitoring); null: not a cached route. */
    apiCache: 'hit' | 'miss' | 'bypass' | null;
    /**
     * A call answered 2xx whose action did not happen (an answer with `ok: false`: refused or
     * failed) is audited as a failure; null: the status code decides.
     */
    auditOutcome: 'failure' | null;
  }
  interface FastifyInstance {
    /** Every route registered on the app (see http/route-list.ts). */
    routeList: RegisteredRoute[];
  }
}
