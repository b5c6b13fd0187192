import { watchCloseHooks } from './http/close-watch.ts';
import { MAIL_SAVE_EVENT } from '@mailroom/contract/mail';
import fastifySwagger from '@fastify/swagger';
import Fastify, { type FastifyInstance } from 'fastify';
import {
  jsonSchemaTransform,
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import type { AppDeps } from './app-deps.ts';
import { registerApply } from './apply/apply.routes.ts';
import { installApiMonitoring } from './features/api-monitoring/api-monitoring.module.ts';
import { registerApiMonitoring } from './features/api-monitoring/api-monitoring.routes.ts';
import { registerAudit } from './features/audit/audit.routes.ts';
import { registerNotifications } from './features/events/notifications.routes.ts';
import { notify } from './features/events/notification.repository.ts';
import { registerSearch } from './features/search/search.routes.ts';
import { registerAuth } from './features/auth/auth.routes.ts';
import { registerAccounts } from './features/auth/accounts.routes.ts';
import { registerAppPasswords } from './features/mailbox-account/app-passwords.routes.ts';
import { createLocks } from './db/locks.ts';
import { registerDns } from './features/dns/dns.module.ts';
import { EventHub, type HubTuning } from './features/events/event-hub.service.ts';
import { workerEventRelay } from './host/cluster-events.ts';
import { type EventsOptions, registerEvents } from './features/events/events.routes.ts';
import { sessionCheck } from './features/events/stream-session.service.ts';
import { jobFeed } from './features/jobs/job-feed.service.ts';
import { JobRunner, type RunnerTuning } from './features/jobs/job-runner.service.ts';
import { registerJobs } from './features/jobs/jobs.routes.ts';
import { createBulk } from './features/bulk/bulk.module.ts';
import { registerBulk } from './features/bulk/bulk.routes.ts';
import { listMailDnsFacts } from './features/mail/domains/mail-dns-facts.service.ts';
import { type MailHandle, registerMail } from './features/mail/mail.module.ts';
import { registerSsl } from './features/ssl/ssl.module.ts';
import { registerMfa } from './features/mfa/mfa.routes.ts';
import { mailContext } from './features/mail/mail.context.ts';
import { changePassword } from './features/mail/mailboxes/mailbox.service.ts';
import { readMailSettings } from './features/mail/settings/mail-settings.service.ts';
import {
  DEFAULT_THROTTLE,
  recordSuccess,
  reserveAttempt,
  type ThrottlePolicy,
} from './features/auth/login-throttle.service.ts';
import type { GuessThrottle } from './http/sign-in-step.ts';
import { registerAcme } from './features/ssl/acme/acme.routes.ts';
import { registerWeb, type WebHandle } from './features/web/web.module.ts';
import { registerAppLogs } from './features/system/logs/app-logs.service.ts';
import {
  registerBackupSource,
  registerSiteBackups,
} from './features/system/backups/backup-source.registry.ts';
import type { AlertSource } from './features/system/alerts/alert-engine.service.ts';
import type { RestoreKeeper } from './features/system/backups/backup.service.ts';
import {
  installSystemMaintenance,
  registerSystem,
  registerSystemAdmin,
  startSystemLive,
} from './features/system/system.module.ts';
import { installAuthGuard } from './http/auth-guard.ts';
import { installCsrfGuard } from './http/csrf.ts';
import { registerRateLimit } from './http/rate-limit.ts';
import { DEFAULT_RETENTION, startPurgeTimer } from './features/auth/purge-expired.job.ts';
import { installErrorHandler } from './http/error-handler.ts';
import { frameworkErrors, MAX_PARAM_LENGTH } from './http/framework-errors.ts';
import { installListEtags } from './http/list-etag.ts';
import { rewriteIndexPhp } from './http/index-php.ts';
import { installMetrics } from './http/metrics.ts';
import { rejectNulCharacters } from './http/reject-nul.ts';
import { collectRoutes } from './http/route-list.ts';
import { installSecurityHeaders } from './http/security-headers.ts';
import { installSpa } from './http/spa.ts';
import { registerDnsDaemons } from './features/dns/dns.module.ts';
import { registerMailDaemons } from './features/mail/mail-daemons.module.ts';

// The daemons each feature owns, known to host/'s service control as soon as the app's modules
// load: main makes the service control before it builds the app.
registerMailDaemons();
registerDnsDaemons();

export interface BuildOptions {
  logger?: boolean | object;
  throttle?: ThrottlePolicy;
  /** Job runner, events hub and stream timings (tests shorten them). */
  jobs?: RunnerTuning & HubTuning & EventsOptions;
  /** Extra routes, registered before the app is ready (tests only: e.g. a route that fails). */
  testRoutes?: (app: FastifyInstance) => void;
  /**
   * Read the upgradable packages at start (default true). The API tests' harness turns it off
   * unless a test asks: an apt reading per test app is CPU the suite does not need.
   */
  warmUpdates?: boolean;
}

export const DEFAULT_BODY_LIMIT = 1024 * 1024;

/** The whole API and console, ready to listen or to be driven with `app.inject` in tests. */
export async function buildApp(deps: AppDeps, opts: BuildOptions = {}): Promise<FastifyInstance> {
  // Locks and the job runner are shared by every feature; made here unless the caller gave them.
  // They are set on `deps` itself, so the caller (main, tests) reaches the same instances.
  const ownLocks = !deps.locks;
  const locks = (deps.locks ??= createLocks(deps.database));
  const jobs = (deps.jobs ??= new JobRunner(deps.database.db, locks, {
    staleMs: deps.config.jobStaleMs,
    ...opts.jobs,
  }));
  const app = Fastify({
    logger: opts.logger ?? false,
    trustProxy: deps.config.trustProxy,
    bodyLimit: DEFAULT_BODY_LIMIT,
    rewriteUrl: (req) => rewriteIndexPhp(req.url ?? '/'),
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: MAX_PARAM_LENGTH },
    frameworkErrors,
  }).withTypeProvider<ZodTypeProvider>();

  watchCloseHooks(app);
  collectRoutes(app);
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  installErrorHandler(app);
  rejectNulCharacters(app);
  installSecurityHeaders(app);
  // Cross-site forms and simple fetches can send text/plain; no route reads it (imports take text/csv).
  app.removeContentTypeParser('text/plain');
  // Request statistics of every worker (roll-ups in the database), the editable rate limit and the
  // response cache (features/api-monitoring); /metrics reads the same roll-ups.
  const apiMonitor = await installApiMonitoring(app, deps);
  const promRegistry = installMetrics(
    app,
    () => apiMonitor.prometheusText(),
    (request) => apiMonitor.metricsAllowed(request),
  );
  await app.register(fastifySwagger, {
    openapi: {
      info: { title: 'Mailroom API', version: '1.0.0' },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
    },
    transform: jsonSchemaTransform,
  });
  const rateLimit = registerRateLimit(app, deps.database, deps.config.rateLimit);
  installAuthGuard(
    app,
    deps.database.db,
    { idleMs: deps.config.sessionIdleMs, absoluteMs: deps.config.sessionAbsoluteMs },
    apiMonitor.keyAuth,
  );
  rateLimit.afterAuth();
  apiMonitor.installAfterAuth();
  installCsrfGuard(app);
  installSystemMaintenance(app, deps);
  const stopPurge = startPurgeTimer(
    deps.database.db,
    deps.config.purgeIntervalMs,
    { ...DEFAULT_RETENTION, sessionIdleMs: deps.config.sessionIdleMs },
    (err) => app.log.error({ err }, 'purge of expired sessions failed'),
  );
  app.addHook('onClose', (_app, done) => {
    stopPurge();
    done();
  });
  installListEtags(app, deps.database.db);
  apiMonitor.installCache();

  app.get('/api/docs', { schema: { hide: true } }, async () => app.swagger());

  // The MFA feature answers the sign-in's second step; auth does not import it.
  const changeMailboxPassword = (email: string, password: string) =>
    changePassword(mailContext(deps), email, password);
  // Codes and verification mails come from the mail server's own name (its mail settings).
  const mfaMailFrom = async () => `mailroom@${(await readMailSettings(deps.database.db)).settings.hostname}`;
  const throttle = opts.throttle ?? DEFAULT_THROTTLE;
  const guesses: GuessThrottle = {
    reserve: (email, ip) => reserveAttempt(deps.database.db, throttle, email, ip),
    success: (email, ip, ids) => recordSuccess(deps.database.db, email, ip, ids),
  };
  registerAuth(app, deps, throttle, registerMfa(app, deps, changeMailboxPassword, guesses, mfaMailFrom));
  registerAccounts(app, deps);
  registerAppPasswords(app, deps);
  // Bulk runs are resumable jobs: their kind is registered before the runner's first sweep.
  const bulk = createBulk(deps);
  await jobs.start();
  const hub = new EventHub(deps.database.db, jobFeed(deps.database.db, jobs), opts.jobs, workerEventRelay);
  registerJobs(app, deps, jobs);
  const live = await startSystemLive(app, deps, promRegistry);
  registerEvents(
    app,
    hub,
    sessionCheck(deps.database.db, deps.config.sessionIdleMs),
    opts.jobs,
    live.collector,
  );
  app.addHook('onClose', async () => {
    await jobs.close();
    hub.close();
    if (ownLocks) await locks.close();
  });
  registerSystem(app, deps);
  // Other areas' alert conditions join as those areas register below.
  const alertSources: AlertSource[] = [];
  const restoreKeepers: RestoreKeeper[] = [];
  const systemAdmin = registerSystemAdmin(app, deps, {
    metrics: deps.metrics,
    alertSources,
    restoreKeepers,
    // Warning and critical alerts reach the bell (shown there while the alert is open).
    notify: (n) => notify(deps.database.db, n),
    warmUpdates: opts.warmUpdates ?? true,
  });
  registerAudit(app, deps);
  registerNotifications(app, deps);
  registerSearch(app, deps);
  registerApiMonitoring(app, deps, apiMonitor);
  registerApply(app, deps);
  // DNS publishes the mail domains' records; the facts come from the mail area, wired here so
  // neither feature imports the other.
  // SSL serves the mail stack its certificate and TLS policy; mail tells SSL its host name and
  // re-applies when the served certificate changes. Wired here so neither imports the other.
  let mail: MailHandle | null = null;
  let web: WebHandle | null = null;
  const mailHandle = () => {
    if (!mail) throw new Error('the mail area is not registered yet');
    return mail;
  };
  const ssl = registerSsl(app, deps, {
    mailHostname: () => mailHandle().hostname(),
    reapplyMail: () => mailHandle().reapply(),
    mailFallback: () => mailHandle().fallbackCertificate(),
    // The SSL settings that apply to the web server reach Apache through the web apply.
    // A refusal is recorded as the web target's outcome (Retry on the dashboard); the save stands.
    // Every host is rendered again: the Server Port is the HTTPS port of hosts that leave theirs empty.
    reapplyWeb: async () => {
      await web?.ctx.applyAll().catch((err: unknown) => app.log.warn({ err }, 'web: TLS policy not applied'));
    },
    // What the installed Apache cannot honour is refused before the SSL settings are saved.
    webRefusals: async (s) => (web ? web.sslRefusals(s) : {}),
  });
  const dns = registerDns(app, deps, {
    mailFacts: () => listMailDnsFacts(deps.database.db),
    sslCount: () => ssl.count(),
  });
  deps.dnsChallenges ??= dns.challenges;
  // A restore never rewinds a zone's serial below what secondaries have seen.
  restoreKeepers.push(() => dns.keepSerialsAcrossRestore());
  registerAcme(app, deps);
  // Web hosting serves the SSL area's certificates; handed over here so neither imports the other.
  web = registerWeb(app, deps, { tls: ssl.webTls, tlsPolicy: ssl.webPolicy });
  // The sites with Enable Backup are part of the system backups (same job, schedule, retention).
  registerBackupSource(deps.host, 'web', web.backupPaths);
  // …and each also gets backups of its own files on its own schedule and retention (same catalogue).
  registerSiteBackups(deps.host, web.siteBackups);
  // An application in error raises a system alert (and its webhooks) like a daemon that is down.
  alertSources.push(web.alertConditions);
  // The applications' own logs (their output at each Log Path) are read by the System Logs screen.
  registerAppLogs(deps.host, web.appLogs);
  // A mail change that moves MX, DKIM, SPF or DMARC republishes only the zones it concerns (never a
  // password, quota or status change); only zones whose text changed are rewritten.
  mail = registerMail(app, deps, {
    onDnsFactsChanged: (domains) => dns.republishMailZones(domains),
    tls: ssl.mailTls,
    // A save's steps reach the page's stream as they change, whichever worker holds it.
    onSaveProgress: (data) => hub.publish({ type: MAIL_SAVE_EVENT, data }),
  });

  opts.testRoutes?.(app);
  // Bulk operations run each area's own service; the areas hand their operations over here.
  bulk.add([
    ...mail.bulkOperations,
    ...dns.bulkOperations,
    ...ssl.bulkOperations,
    ...systemAdmin.bulkOperations,
  ]);
  registerBulk(app, bulk);

  await installSpa(app, deps.config.webDist);
  await app.ready();
  return app;
}
