import fastifySwagger from '@fastify/swagger';
import Fastify, { type FastifyInstance } from 'fastify';
import {
  jsonSchemaTransform,
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import type { AppDeps } from './app-deps.ts';
import { registerAudit } from './features/audit/audit.routes.ts';
import { registerAuth } from './features/auth/auth.routes.ts';
import { createLocks } from './db/locks.ts';
import { registerDns } from './features/dns/dns.routes.ts';
import { EventHub, type HubTuning } from './features/events/event-hub.ts';
import { type EventsOptions, registerEvents } from './features/events/events.routes.ts';
import { sessionCheck } from './features/events/stream-session.ts';
import { jobFeed } from './features/jobs/job-feed.ts';
import { JobRunner, type RunnerTuning } from './features/jobs/job-runner.ts';
import { registerJobs } from './features/jobs/jobs.routes.ts';
import { listMailDnsFacts } from './features/mail/mail-dns-facts.ts';
import { registerMail } from './features/mail/mail.routes.ts';
import type { ThrottlePolicy } from './features/auth/login-throttle.ts';
import { registerSystem } from './features/system/system.routes.ts';
import { installAuthGuard } from './http/auth-guard.ts';
import { installErrorHandler } from './http/error-handler.ts';
import { rewriteIndexPhp } from './http/index-php.ts';
import { installMetrics } from './http/metrics.ts';
import { rejectNulCharacters } from './http/reject-nul.ts';
import { collectRoutes } from './http/route-list.ts';
import { installSecurityHeaders } from './http/security-headers.ts';
import { installSpa } from './http/spa.ts';

export interface BuildOptions {
  logger?: boolean | object;
  throttle?: ThrottlePolicy;
  /** Job runner, events hub and stream timings (tests shorten them). */
  jobs?: RunnerTuning & HubTuning & EventsOptions;
}

export const DEFAULT_BODY_LIMIT = 1024 * 1024;

/** The whole API and console, ready to listen or to be driven with `app.inject` in tests. */
export async function buildApp(deps: AppDeps, opts: BuildOptions = {}): Promise<FastifyInstance> {
  // Locks and the job runner are shared by every feature; made here unless the caller gave them.
  // They are set on `deps` itself, so the caller (main, tests) reaches the same instances.
  const ownLocks = !deps.locks;
  const locks = (deps.locks ??= createLocks(deps.database));
  const jobs = (deps.jobs ??= new JobRunner(deps.database.db, locks, opts.jobs));
  const app = Fastify({
    logger: opts.logger ?? false,
    trustProxy: deps.config.trustProxy,
    bodyLimit: DEFAULT_BODY_LIMIT,
    rewriteUrl: (req) => rewriteIndexPhp(req.url ?? '/'),
    routerOptions: { ignoreTrailingSlash: true },
  }).withTypeProvider<ZodTypeProvider>();

  collectRoutes(app);
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  installErrorHandler(app);
  rejectNulCharacters(app);
  installSecurityHeaders(app);
  installMetrics(app);
  await app.register(fastifySwagger, {
    openapi: {
      info: { title: 'Mailroom API', version: '1.0.0' },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
    },
    transform: jsonSchemaTransform,
  });
  installAuthGuard(app, deps.database.db, {
    idleMs: deps.config.sessionIdleMs,
    absoluteMs: deps.config.sessionAbsoluteMs,
  });

  app.get('/api/docs', { schema: { hide: true } }, async () => app.swagger());

  registerAuth(app, deps, opts.throttle);
  await jobs.start();
  const hub = new EventHub(deps.database.db, jobFeed(deps.database.db, jobs), opts.jobs);
  registerJobs(app, deps, jobs);
  registerEvents(app, hub, sessionCheck(deps.database.db, deps.config.sessionIdleMs), opts.jobs);
  app.addHook('onClose', async () => {
    await jobs.close();
    hub.close();
    if (ownLocks) await locks.close();
  });
  registerSystem(app, deps);
  registerAudit(app, deps);
  // DNS publishes the mail domains' records; the facts come from the mail area, wired here so
  // neither feature imports the other.
  const dns = registerDns(app, deps, { mailFacts: () => listMailDnsFacts(deps.database.db) });
  // A successful mail change may move MX, DKIM, SPF or DMARC: republish the mail domains' zones
  // before the answer leaves (only zones whose text changed are rewritten).
  app.addHook('onSend', (request, reply, payload, done) => {
    const action = request.routeOptions.config?.audit;
    if (request.method === 'GET' || reply.statusCode >= 400 || !action?.startsWith('mail.')) {
      done(null, payload);
      return;
    }
    dns
      .republishMailZones()
      .catch((err: unknown) => request.log.error({ err }, 'DNS republish failed'))
      .finally(() => done(null, payload));
  });
  registerMail(app, deps, { onDnsFactsChanged: () => dns.republishMailZones() });

  await installSpa(app, deps.config.webDist);
  await app.ready();
  return app;
}
