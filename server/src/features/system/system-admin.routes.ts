import path from 'node:path';
import { systemAlertRoutes } from '@mailroom/contract/system-alerts';
import { systemAdminRoutes as r } from '@mailroom/contract/system-admin';
import type { FastifyInstance } from 'fastify';
import type { BulkOperationHandler } from '../../lib/bulk-operation.ts';
import { backupBulkOperation } from './backup-bulk-op.service.ts';
import type { AppDeps } from '../../app-deps.ts';
import { Apt, aptOptions } from '../../host/apt.ts';
import { fileStream, makeFolder } from '../../host/data-files.ts';
import { conflict } from '../../http/errors.ts';
import { registerRoute } from '../../http/register-route.ts';
import { AlertEngine, type AlertInputs } from './alerts-engine.ts';
import {
  acknowledgeAlert,
  acknowledgeAll,
  type AlertNotice,
  listAlerts,
  notifyAlert,
} from './alerts.service.ts';
import { startBackupScheduler } from './backups-scheduler.ts';
import { SITE_BACKUP_JOB, siteBackupJob } from './site-backups.service.ts';
import {
  BACKUP_JOB,
  type BackupEnv,
  backupFile,
  backupJob,
  backupStatus,
  deleteBackup,
  insertBackupRow,
  RESTORE_JOB,
  VERIFY_JOB,
  verifyJob,
  backupChain,
  type RestoreKeeper,
} from './backups.service.ts';
import { installMaintenanceGuard } from './maintenance.ts';
import type { MetricsSource } from './metrics-source.ts';
import { postfixQueueSize } from './queue-size.service.ts';
import { reapplyAfterRestore, restoreDaemons } from './restore-reapply.ts';
import { restoreJob } from './restore.service.ts';
import {
  formToValues,
  readSettingValues,
  resetAllSettings,
  saveSettingValues,
  toAnswer,
} from './system-settings.service.ts';
import {
  CHECK_JOB,
  checkJob,
  checkRemovable,
  INSTALL_JOB,
  installJob,
  listUpdates,
  updatesVersion,
  REMOVE_JOB,
  removeJob,
} from './updates.service.ts';
import { UpdatesReading } from './updates-reading.service.ts';
import {
  addWebhook,
  deleteWebhook,
  deliveryJob,
  listDeliveries,
  listWebhooks,
  queueEvent,
  WEBHOOK_JOB,
  webhookTuning,
} from './webhooks.service.ts';

export interface SystemAdminOptions {
  /** The one metrics collector (the system-live area); alerts read CPU, memory and disk from it. */
  metrics?: MetricsSource | undefined;
  /** Overrides the mail queue reader (tests). */
  queueSize?: AlertInputs['queueSize'];
  /** How often alerts are evaluated without a metrics sample (default 30 s). */
  alertIntervalMs?: number;
  /** How long conditions must hold or be over (tests shorten it; default DEFAULT_TIMING). */
  alertTiming?: AlertInputs['timing'];
  /** Puts a notification in every administrator's bell (the events area's, wired in app.ts). */
  notify?: (n: AlertNotice) => Promise<void>;
  /** Other areas' live state kept across a restore (filled in app.ts as the areas register). */
  restoreKeepers?: RestoreKeeper[];
  /** Other areas' alert conditions (filled in app.ts as the areas register). */
  alertSources?: AlertInputs['sources'];
  /** Read the upgradable packages at start and keep them warm (default true). */
  warmUpdates?: boolean;
}

/**
 * Installs maintenance mode (call before other routes' hooks matter: it is a global preHandler).
 */
export function installSystemMaintenance(app: FastifyInstance, deps: AppDeps): void {
  installMaintenanceGuard(app, deps.database.db);
}

/** System administration: settings, alerts and webhooks, updates, backups and restores. */
export function registerSystemAdmin(
  app: FastifyInstance,
  deps: AppDeps,
  opts: SystemAdminOptions = {},
): { bulkOperations: BulkOperationHandler[] } {
  const db = deps.database.db;
  const jobs = deps.jobs!;
  const locks = deps.locks!;
  const actor = (req: { admin: { email: string } | null }) => req.admin?.email ?? 'unknown';
  const accepted = (job: { id: number; state: string }, what: string) => ({
    jobId: job.id,
    state: job.state as 'queued',
    message: `${what} started as job ${job.id}`,
  });

  // ---- settings
  registerRoute(app, r.settings, async () => toAnswer(await readSettingValues(db)));
  registerRoute(app, r.saveForm, async ({ body }) =>
    toAnswer(await saveSettingValues(db, formToValues(body))),
  );
  registerRoute(app, r.saveValues, async ({ body }) => toAnswer(await saveSettingValues(db, body.values)));
  registerRoute(app, r.resetAll, async () => toAnswer(await resetAllSettings(db)));

  // ---- alerts and webhooks
  const tuning = webhookTuning();
  jobs.register(WEBHOOK_JOB, deliveryJob(db, tuning));
  const engine = new AlertEngine(
    db,
    locks,
    {
      metrics: opts.metrics,
      services: deps.services,
      queueSize: opts.queueSize ?? postfixQueueSize(deps.host.path('/etc/postfix')),
      // Read at each evaluation: tests set deps.clock after the app is built.
      clock: () => (deps.clock ?? Date.now)(),
      timing: opts.alertTiming,
      sources: opts.alertSources,
    },
    async (changes) => {
      for (const c of changes) {
        await queueEvent(db, jobs, c.event, c.alert);
        if (opts.notify) await notifyAlert(opts.notify, c);
      }
    },
    (err) => app.log.error({ err }, 'alert evaluation failed'),
  );
  registerRoute(app, systemAlertRoutes.list, async ({ query }) => ({
    alerts: await listAlerts(db, query.state),
  }));
  registerRoute(app, systemAlertRoutes.acknowledge, async ({ params, request }) => ({
    acknowledged: await acknowledgeAlert(db, params.id, actor(request)),
  }));
  registerRoute(app, systemAlertRoutes.acknowledgeAll, async ({ request }) => ({
    acknowledged: await acknowledgeAll(db, actor(request)),
  }));
  registerRoute(app, r.webhooks, async () => ({ webhooks: await listWebhooks(db) }));
  registerRoute(app, r.addWebhook, async ({ body }) => addWebhook(db, body.url, body.secret));
  registerRoute(app, r.deleteWebhook, async ({ params }) => ({
    deleted: await deleteWebhook(db, params.id),
  }));
  registerRoute(app, r.deliveries, async ({ params }) => ({
    deliveries: await listDeliveries(db, params.id),
  }));
  registerRoute(app, r.testWebhook, async ({ params }) => {
    await listDeliveries(db, params.id); // 404 for an unknown webhook
    const [deliveryId] = await queueEvent(
      db,
      jobs,
      'test',
      { message: 'A test event from Mailroom' },
      params.id,
    );
    if (deliveryId === undefined) {
      throw conflict(`Webhook ${params.id} is disabled.`);
    }
    return { deliveryId };
  });

  // ---- updates
  const apt = new Apt(aptOptions());
  // apt takes seconds to list and describe the upgradable packages: one reading, kept in the
  // database for every worker and instance, answered at once with its age and read again in the
  // background when it is older than a minute or an update job ended since (its version).
  const reading = new UpdatesReading(
    db,
    (signal) => listUpdates(db, apt, signal),
    () => updatesVersion(db),
    {
      onError: (err) => app.log.warn({ err }, 'reading the upgradable packages failed'),
    },
  );
  if (opts.warmUpdates ?? true) reading.start();
  app.addHook('onClose', () => reading.stop());
  jobs.register(CHECK_JOB, checkJob(apt));
  jobs.register(INSTALL_JOB, installJob(apt));
  jobs.register(REMOVE_JOB, removeJob(apt));
  registerRoute(app, r.updates, () => reading.get());
  registerRoute(app, r.checkUpdates, async ({ request, reply }) => {
    const job = await jobs.enqueue(CHECK_JOB, 'Check for updates', actor(request), {});
    void reply.code(202);
    return accepted(job, 'Checking for updates');
  });
  registerRoute(app, r.installUpdates, async ({ body, request, reply }) => {
    const pkgs = body.packages ?? [];
    const job = await jobs.enqueue(
      INSTALL_JOB,
      pkgs.length ? `Install ${pkgs.join(', ')}`.slice(0, 200) : 'Install all updates',
      actor(request),
      { packages: pkgs },
    );
    void reply.code(202);
    return accepted(job, 'The install');
  });
  registerRoute(app, r.removePackage, async ({ body, request, reply }) => {
    await checkRemovable(apt, body.package);
    const job = await jobs.enqueue(REMOVE_JOB, `Uninstall ${body.package}`, actor(request), {
      package: body.package,
    });
    void reply.code(202);
    return accepted(job, 'The uninstall');
  });

  // ---- backups
  const backupDir = path.resolve(
    process.env.MAILROOM_BACKUP_DIR ?? path.join(deps.config.dataDir, 'backups'),
  );
  const env: BackupEnv = {
    database: deps.database,
    locks,
    dataDir: deps.config.dataDir,
    backupDir,
    host: deps.host,
    reapply: reapplyAfterRestore(deps),
    daemons: restoreDaemons(deps),
    keepers: opts.restoreKeepers ?? [],
  };
  void makeFolder(backupDir, 0o700);
  jobs.register(BACKUP_JOB, backupJob(env));
  const bulkOperations = [backupBulkOperation(env)];
  jobs.register(VERIFY_JOB, verifyJob(env));
  jobs.register(RESTORE_JOB, restoreJob(env));
  jobs.register(SITE_BACKUP_JOB, siteBackupJob(env));
  registerRoute(app, r.backupStatus, async () => backupStatus(env));
  registerRoute(app, r.startBackup, async ({ body, request, reply }) => {
    const type = body.type ?? 'full';
    await makeFolder(backupDir, 0o700);
    const id = await insertBackupRow(db, type, body.description?.trim() || 'Manual backup', 'manual');
    request.auditTarget = String(id);
    const job = await jobs.enqueue(
      BACKUP_JOB,
      `${type === 'full' ? 'Full' : 'Incremental'} backup`,
      actor(request),
      {
        backupId: id,
      },
    );
    void reply.code(202);
    return accepted(job, 'The backup');
  });
  registerRoute(app, r.downloadBackup, async ({ params, reply }) => {
    const f = await backupFile(env, params.id);
    return reply
      .header('content-type', 'application/x-tar')
      .header('content-length', String(f.size))
      .header('content-disposition', `attachment; filename="${f.name}"`)
      .send(fileStream(f.file)) as never;
  });
  registerRoute(app, r.deleteBackup, async ({ params }) => ({ deleted: await deleteBackup(env, params.id) }));
  registerRoute(app, r.restoreBackup, async ({ params, request, reply }) => {
    await backupChain(db, params.id); // 404 / 409 before a job is started
    // Every session is ended by the restore except this one (its account restored under the same address).
    const job = await jobs.enqueue(RESTORE_JOB, `Restore backup ${params.id}`, actor(request), {
      backupId: params.id,
      keepSessionId: request.admin?.sessionId ?? null,
    });
    void reply.code(202);
    return accepted(job, 'The restore');
  });
  registerRoute(app, r.verifyBackup, async ({ params, request, reply }) => {
    await backupChain(db, params.id);
    const job = await jobs.enqueue(VERIFY_JOB, `Verify backup ${params.id}`, actor(request), {
      backupId: params.id,
    });
    void reply.code(202);
    return accepted(job, 'The restore drill');
  });

  const schedulerMs = Number(process.env.MAILROOM_BACKUP_SCHEDULE_MS ?? 60_000);
  const stopScheduler = startBackupScheduler(env, jobs, schedulerMs, (err) =>
    app.log.error({ err }, 'backup schedule check failed'),
  );
  engine.start(opts.alertIntervalMs ?? 30_000);
  app.addHook('onClose', async () => {
    stopScheduler();
    await engine.stop();
  });
  return { bulkOperations };
}
