import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { recordAudit } from './audit.ts';
import { unauthorized } from './errors.ts';
import { type SessionPolicy, tokenFromHeaders, touchSession } from './sessions.ts';

/**
 * Every /api route needs a live session unless its catalogue entry is public. State-changing
 * calls are written to the audit log when they finish, with their outcome.
 */
export function installAuthGuard(app: FastifyInstance, db: Kysely<Database>, policy: SessionPolicy): void {
  app.decorateRequest('admin', null);
  app.decorateRequest('auditTarget', null);
  app.decorateRequest('auditDetails', null);
  app.decorateRequest('auditDone', false);

  app.addHook('onRequest', async (request) => {
    const url = request.url;
    const isApi = url === '/api' || url.startsWith('/api/') || url.startsWith('/api?');
    if (!isApi || request.routeOptions.config?.public) return;
    const token = tokenFromHeaders(request.headers);
    const admin = token ? await touchSession(db, policy, token) : null;
    if (!admin) throw unauthorized();
    request.admin = admin;
  });

  app.addHook('onResponse', async (request, reply) => {
    if (request.method === 'GET' || request.method === 'HEAD' || request.method === 'OPTIONS') return;
    if (request.auditDone || !request.admin) return;
    const action = request.routeOptions.config?.audit;
    if (!action) return;
    const params = request.params as Record<string, string> | undefined;
    const target = request.auditTarget ?? (params && Object.keys(params).length ? Object.values(params).join('/') : null);
    try {
      await recordAudit(db, {
        actor: request.admin.email,
        action,
        target,
        ip: request.ip,
        outcome: reply.statusCode < 400 ? 'success' : 'failure',
        details: request.auditDetails ?? (reply.statusCode >= 400 ? { status: reply.statusCode } : null),
      });
    } catch (err) {
      request.log.error({ err }, 'audit write failed');
    }
  });
}
