import type { LiveSaveStep, MailSaveProgress } from '@mailroom/contract/mail';
import type { MailTlsSource } from '@mailroom/contract/mail-tls';
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { AppDeps } from '../../app-deps.ts';
import { assertApplied } from '../../apply/pipeline.ts';
import { registerRetry } from '../../apply/retry-registry.ts';
import type { Database } from '../../db/schema.ts';
import { observeDaemons } from '../../host/local-services.ts';
import { AppError } from '../../http/errors.ts';
import type { BulkOperationHandler } from '../../lib/bulk-operation.ts';
import { ensureDkimKeys } from './domains/dkim.service.ts';
import {
  applyMailCommitted,
  dnsFactsMoved,
  SAVE_STEP,
  SaveSteps,
  saveMailSettings,
  setMailTlsSource,
} from './stack/mail-apply.service.ts';
import { mailBulkOperations } from './bulk/mail-bulk-ops.service.ts';
import { mailContext } from './mail.context.ts';
import { mailDashboard } from './mail-dashboard.service.ts';
import { mailDbConn } from './stack/mail-db.connection.ts';
import { type FilterTarget, mailFilterStatus, virusScanSupport } from './stack/mail-filter.service.ts';
import {
  alignVirusScanDefault,
  readMailSettings,
  settingsResponse,
} from './settings/mail-settings.service.ts';
import { type FallbackCertificate, readFallbackCertificate } from './stack/mail-stack.service.ts';
import { type MailRuntime, registerMailRoutes } from './mail.routes.ts';

export interface MailOptions {
  /**
   * Called when what DNS derives from the mail area may have moved for these domains (a domain
   * came or went, a DKIM key appeared) or for every mail domain ('all': the settings' hostname, MX,
   * SPF, DMARC or DKIM switch changed). Never called for a password, quota or status change.
   */
  onDnsFactsChanged?: (domains: string[] | 'all') => Promise<void>;
  /** The SSL area's certificate for the mail host and its TLS policy (absent: a self-signed one). */
  tls?: MailTlsSource<Kysely<Database>>;
  /** A save's steps as they change (the events stream sends them to the page that saved). */
  onSaveProgress?: (p: MailSaveProgress) => void;
}

/** What other areas may ask of the mail area (wired in app.ts). */
export interface MailHandle {
  /** The mail server's host name from the saved settings. */
  hostname(): Promise<string>;
  /** Renders and applies the mail stack again (the served certificate or TLS policy changed). */
  reapply(): Promise<void>;
  /** Create and delete mailboxes, create and delete aliases for the bulk operations (issue 21). */
  bulkOperations: BulkOperationHandler[];
  /** Mailroom's self-signed fallback certificate, served when the SSL area serves none. */
  fallbackCertificate(): Promise<FallbackCertificate | null>;
}

/**
 * The mail area: its routes, the start's render of the mail server's files, the Retry
 * registration, and the DKIM key queue.
 */
export function registerMail(app: FastifyInstance, deps: AppDeps, opts: MailOptions = {}): MailHandle {
  setMailTlsSource(deps, opts.tls);
  const ctx = mailContext(deps);
  const { db } = ctx;
  const { host } = deps;
  const conn = mailDbConn(deps.database, deps.config.mailDbUrl);
  const filter: FilterTarget = { milterPort: deps.config.ports.milter, dnsPort: deps.config.ports.dns };
  const respond = async (stored: Awaited<ReturnType<typeof readMailSettings>>) =>
    settingsResponse(stored, await mailFilterStatus(host, stored.settings, filter, deps.services));

  /** Answers whether DNS republished (false: it failed, and the log says why). */
  const republish = async (domains: string[] | 'all'): Promise<boolean> => {
    if (domains !== 'all' && !domains.length) return true;
    // The mail change stands; a zone DNS refuses is reported on the DNS status, not here.
    return (opts.onDnsFactsChanged?.(domains) ?? Promise.resolve()).then(
      () => true,
      (err: unknown) => {
        app.log.error({ err }, 'DNS republish failed');
        return false;
      },
    );
  };
  const factsChanged = async (domains: string[] | 'all'): Promise<void> => void (await republish(domains));
  // DKIM keys take a while each (2048-bit RSA): made one job at a time, after the change that
  // needs them; their files go live through the apply pipeline (only the new key file and the
  // tables change), then DNS republishes the zones of these domains only. close() waits.
  let dkimJob: Promise<void> = Promise.resolve();
  const scheduleDkim = (domains: string[]): Promise<void> => {
    dkimJob = dkimJob
      .then(async () => {
        const { settings, problem } = await readMailSettings(db);
        // One process at a time makes keys (a cluster's workers share the key folder).
        const makeKeys = () => ensureDkimKeys(db, host);
        const keyed =
          !problem && settings.enableDKIM
            ? await (deps.locks ? deps.locks.withLock('mail.dkim', makeKeys) : makeKeys())
            : [];
        if (keyed.length) {
          const r = await applyMailCommitted(deps, conn);
          if (r.outcome.state !== 'applied')
            app.log.warn({ outcome: r.outcome }, 'DKIM files not applied; last good files kept');
        }
        await factsChanged([...new Set([...domains, ...keyed])]);
      })
      .catch((err: unknown) => app.log.error({ err }, 'DKIM key generation failed'));
    return dkimJob;
  };
  // The mail server's files are rendered at start with the saved (or default) settings. This
  // runs beside the start (a slow checker must not hold the app back); reading or saving the
  // settings waits for it, and close() lets it finish.
  let startup: Promise<void> = Promise.resolve();
  registerRetry(deps, 'mail', async () => {
    await startup;
    const r = await applyMailCommitted(deps, conn);
    assertApplied(r.outcome);
    return r.outcome;
  });
  app.addHook('onReady', async () => {
    startup = (async () => {
      try {
        await alignVirusScanDefault(db, (await virusScanSupport(host)).available);
        const r = await applyMailCommitted(deps, conn);
        if (r.outcome.state !== 'applied')
          app.log.warn(
            { outcome: r.outcome },
            'mail configuration not applied at start; last good files kept',
          );
      } catch (err) {
        app.log.error({ err }, 'could not render the mail configuration at start');
      }
      void scheduleDkim([]);
    })();
  });
  app.addHook('onClose', async () => {
    await startup;
    await dkimJob;
  });

  const runtime: MailRuntime = {
    ctx,
    factsChanged,
    scheduleDkim,
    async settings() {
      await startup;
      return respond(await readMailSettings(db));
    },
    async saveSettings(settings, version, saveId) {
      await startup;
      const before = await readMailSettings(db);
      const dnsMoves = !!before.problem || dnsFactsMoved(before.settings, settings);
      // The save's steps as they ran go with its answer, refused or not, and (with a saveId) to
      // the events stream as each one changes (issue 22 #17).
      let seq = 0;
      const progress = (steps: LiveSaveStep[], done: boolean) => {
        if (saveId && opts.onSaveProgress) opts.onSaveProgress({ saveId, seq: ++seq, steps, done });
      };
      const steps = new SaveSteps(
        [SAVE_STEP.prepare, SAVE_STEP.save, SAVE_STEP.live, ...(dnsMoves ? [SAVE_STEP.dns] : [])],
        (live) => progress(live, false),
      );
      const withSteps = (err: unknown) => {
        if (err instanceof AppError && err.details && typeof err.details === 'object')
          Object.assign(err.details, { steps: steps.steps });
        progress(steps.steps, true);
        return err;
      };
      progress(steps.live(), false);
      let r;
      try {
        r = await saveMailSettings(deps, conn, settings, version, steps);
      } catch (err) {
        throw withSteps(err);
      }
      // Saved: DNS follows even when the files did not go live (they are retried, the zones are not).
      if (dnsMoves) {
        steps.start(SAVE_STEP.dns);
        const published = await republish('all');
        steps.end(SAVE_STEP.dns, published ? 'passed' : 'failed', published ? '' : 'See the DNS status.');
      }
      // DKIM just turned on: keys for every domain, then their files.
      if (settings.enableDKIM) void scheduleDkim([]);
      try {
        assertApplied(r.outcome);
      } catch (err) {
        throw withSteps(err);
      }
      // The steps are final: the page has them while the answer is put together.
      progress(steps.steps, true);
      return { ...(await respond(await readMailSettings(db))), steps: steps.steps };
    },
    dashboard: () =>
      mailDashboard(
        db,
        () => deps.services?.states() ?? observeDaemons(host, deps.config),
        async () => {
          const { settings } = await readMailSettings(db);
          return mailFilterStatus(host, settings, filter, deps.services);
        },
      ),
  };
  registerMailRoutes(app, deps, runtime);

  return {
    bulkOperations: mailBulkOperations(ctx, factsChanged),
    hostname: async () => (await readMailSettings(db)).settings.hostname,
    fallbackCertificate: async () => {
      await startup;
      return readFallbackCertificate(host);
    },
    async reapply() {
      await startup;
      const r = await applyMailCommitted(deps, conn);
      assertApplied(r.outcome);
    },
  };
}
