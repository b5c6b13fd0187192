import { ErrorResponse } from '@mailroom/contract/errors';
import type { RouteDef } from '@mailroom/contract/route';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { runInAuditScope } from '../apply/audit-scope.ts';

export interface RouteInput<D extends RouteDef> {
  params: z.output<NonNullable<D['params']>>;
  query: z.output<NonNullable<D['query']>>;
  body: z.output<NonNullable<D['body']>>;
  request: FastifyRequest;
  reply: FastifyReply;
}

/** What a handler returns: the answer, or (routes with `accepted`, after `reply.code(202)`) that one. */
export type RouteHandler<D extends RouteDef> = (
  input: RouteInput<D>,
) => Promise<
  | z.input<D['response']>
  | (D extends RouteDef<z.ZodType, z.ZodType, z.ZodType, z.ZodType, infer A extends z.ZodType>
      ? z.input<A>
      : never)
>;

/** Fastify path of a catalogue entry: `:name` parameters are Fastify's own syntax. */
export function fastifyPath(def: RouteDef): string {
  return `${def.base ?? '/api'}/${def.path}`;
}

/**
 * Registers one catalogue entry. Requests and answers are validated with the contract's zod
 * schemas; `/api/index.php?path=<path>` reaches the same handler through the URL rewrite in app.ts.
 */
export function registerRoute<D extends RouteDef>(
  app: FastifyInstance,
  def: D,
  handler: RouteHandler<D>,
): void {
  const errorResponses = Object.fromEntries(
    [400, 401, 403, 404, 409, 422, 429].map((s) => [s, ErrorResponse]),
  );
  app.route({
    method: def.method,
    url: fastifyPath(def),
    config: {
      public: def.public === true,
      audit: def.audit ?? `${def.method} ${def.path}`,
      ...(def.access ? { access: def.access } : {}),
      ...(def.domainFields ? { domainFields: def.domainFields } : {}),
    },
    schema: {
      summary: def.summary,
      tags: def.tags,
      ...(def.params ? { params: def.params } : {}),
      ...(def.query ? { querystring: def.query } : {}),
      ...(def.body ? { body: def.body } : {}),
      response: { 200: def.response, ...(def.accepted ? { 202: def.accepted } : {}), ...errorResponses },
      ...(def.public ? {} : { security: [{ bearer: [] }] }),
    },
    // Inside the request's audit scope, so a service can write the audit line in its transaction.
    handler: async (request, reply) =>
      runInAuditScope(request, () =>
        handler({
          params: request.params as RouteInput<D>['params'],
          query: request.query as RouteInput<D>['query'],
          body: request.body as RouteInput<D>['body'],
          request,
          reply,
        }),
      ),
  });
}
