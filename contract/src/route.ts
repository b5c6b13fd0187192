import type { z } from 'zod';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH';

/**
 * One entry of the API catalogue. `path` is relative to its base (`/api` unless `base` says
 * `/auth`) and uses `:name` for parameters. The server validates with these schemas; the web
 * app builds its calls and types from the same object.
 */
export interface RouteDef<
  P extends z.ZodType = z.ZodType,
  Q extends z.ZodType = z.ZodType,
  B extends z.ZodType = z.ZodType,
  R extends z.ZodType = z.ZodType,
  A extends z.ZodType | undefined = z.ZodType | undefined,
> {
  method: HttpMethod;
  path: string;
  base?: '/api' | '/auth';
  summary: string;
  tags: string[];
  params?: P;
  query?: Q;
  body?: B;
  response: R;
  /** Answer with 202 when the call started a job instead (e.g. a large import: `JobAccepted`). */
  accepted?: A;
  /** Sign-in and status are the only calls open without a session. */
  public?: boolean;
  /** Audit action name for a state-changing call, e.g. `mail.mailbox.create`. */
  audit?: string;
  /**
   * Who may call it besides administrators (default: administrators only, so a new route is closed
   * to domain administrators until it says otherwise):
   * - 'domain': domain administrators too, for the objects of their assigned domains; the fields
   *   named in `domainFields` are checked centrally and lists filter by domain in their service.
   * - 'self': every signed-in console account (its own account, its own jobs).
   */
  access?: RouteAccess;
  /**
   * Where a 'domain' route names the domain it acts on: `params.<name>`, `query.<name>` or
   * `body.<name>` (`[]` after the name: a list). A value with `@` is an address (its domain
   * counts); a missing value is refused for a domain administrator.
   */
  domainFields?: readonly string[];
}

export type RouteAccess = 'domain' | 'self';

export function defineRoute<
  P extends z.ZodType = z.ZodType,
  Q extends z.ZodType = z.ZodType,
  B extends z.ZodType = z.ZodType,
  R extends z.ZodType = z.ZodType,
  A extends z.ZodType | undefined = z.ZodType | undefined,
>(def: RouteDef<P, Q, B, R, A>): RouteDef<P, Q, B, R, A> {
  return def;
}

export type ParamsOf<D> = D extends RouteDef<infer P, z.ZodType, z.ZodType, z.ZodType> ? z.input<P> : never;
export type QueryOf<D> = D extends RouteDef<z.ZodType, infer Q, z.ZodType, z.ZodType> ? z.input<Q> : never;
export type BodyOf<D> = D extends RouteDef<z.ZodType, z.ZodType, infer B, z.ZodType> ? z.input<B> : never;
export type ResponseOf<D> =
  D extends RouteDef<z.ZodType, z.ZodType, z.ZodType, infer R> ? z.output<R> : never;

/** Fills `:name` parameters, URL-encoding each value. */
export function buildPath(path: string, params?: Record<string, string | number>): string {
  return path.replace(/:([A-Za-z0-9_]+)/g, (_, name: string) => {
    const v = params?.[name];
    if (v === undefined) throw new Error(`missing path parameter ${name}`);
    return encodeURIComponent(String(v));
  });
}
