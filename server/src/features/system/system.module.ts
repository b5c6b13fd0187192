import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { Registry } from 'prom-client';
import type { AppDeps } from '../../app-deps.ts';
import { Apt, aptOptions } from '../../host/apt.ts';
import { makeFolder } from '../../host/data-files.ts';
import { ProcessTable } from '../../host/process-table.ts';
import type { BulkOperationHandler } from '../../lib/bulk-operation.ts';
import { AlertEngine, type AlertInputs } from './alerts/alert-engine.service.ts';
import { type AlertNotice, notifyAlert } from './alerts/alert.service.ts';
import { backupBulkOperation } from './backups/backup-bulk-op.service.ts';
import { startBackupScheduler } from './backups/backup-scheduler.job.ts';
import {
  BACKUP_JOB,
  type BackupEnv,
  backupJob,
  RESTORE_JOB,
  type RestoreKeeper,
  VERIFY_JOB,
  verifyJob,
} from './backups/backup.service.ts';
import { installMaintenanceGuard } from './settings/maintenance.guard.ts';
import { MetricsCollector } from './live/metrics-collector.service.ts';
import type { MetricsSource } from './live/metrics-source.types.ts';
import { registerHostGauges } from './live/prom-host-metrics.service.ts';
import { postfixQueueSize } from './live/queue-size.service.ts';
import { reapplyAfterRestore, restoreDaemons } from './backups/restore-reapply.service.ts';
import { restoreJob } from './backups/restore.service.ts';
import { ServicesService } from './services/services.service.ts';
import { SITE_BACKUP_JOB, siteBackupJob } from './backups/site-backup.service.ts';
import { registerSystemAdminRoutes } from './system-admin.routes.ts';
import { registerSystemLive } from './live/system-live.routes.ts';
import { UpdatesReading } from './updates/updates-reading.service.ts';
import {
  CHECK_JOB,
  checkJob,
  INSTALL_JOB,
  installJob,
  listUpdates,
  REMOVE_JOB,
  removeJob,
  updatesVersion,
} from './updates/updates.service.ts';
import { deliveryJob, queueEvent, WEBHOOK_JOB, webhookTuning } from './webhooks/webhook.service.ts';

export { registerSystem } from './system.routes.ts';

/**
 * The system area's lifecycle, wired here so its routes stay HTTP only: the maintenance guard, the
 * metrics collector and its /metrics gauges, the job kinds (updates, backups, restores, webhook
 * deliveries), the alert engine, the updates reading and the backup schedule, each stopped when
 * the app closes.
 */

/**
 * Installs maintenance mode (call before other routes' hooks matter: it is a global preHandler).
 */
export function installSystemMaintenance(app: FastifyInstance, deps: AppDeps): void {
  installMaintenanceGuard(app, deps.database.db);
}

/**
 * Starts the metrics collector (set as `deps.metrics` unless the caller gave one) and registers the
 * live system routes and the /metrics gauges. The collector stops when the app closes.
 */
export async function startSystemLive(app: FastifyInstance, deps: AppDeps, registry: Registry) {
  const processes = new ProcessTable();
  const services = new ServicesService(deps, new ProcessTable());
  const collector =
    deps.metrics instanceof MetricsCollector
      ? deps.metrics
      : new MetricsCollector({ diskPath: deps.config.dataDir, services: () => services.counts() });
  deps.metrics ??= collector;
  await collector.start();
  app.addHook('onClose', (_app, done) => {
    collector.close();
    done();
  });
  registerSystemLive(app, deps, { collector, processes, services });
  registerHostGauges(registry, collector, deps);
  return { collector };
}

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

/** System administration: settings, alerts and webhooks, updates, backups and restores. */
export function registerSystemAdmin(
  app: FastifyInstance,
  deps: AppDeps,
  opts: SystemAdminOptions = {},
): { bulkOperations: BulkOperationHandler[] } {
  const db = deps.database.db;
  const jobs = deps.jobs!;
  const locks = deps.locks!;

  // ---- alerts and webhooks
  jobs.register(WEBHOOK_JOB, deliveryJob(db, webhookTuning()));
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
  jobs.register(VERIFY_JOB, verifyJob(env));
  jobs.register(RESTORE_JOB, restoreJob(env));
  jobs.register(SITE_BACKUP_JOB, siteBackupJob(env));

  registerSystemAdminRoutes(app, deps, { env, apt, reading });

  const schedulerMs = Number(process.env.MAILROOM_BACKUP_SCHEDULE_MS ?? 60_000);
  const stopScheduler = startBackupScheduler(env, jobs, schedulerMs, (err) =>
    app.log.error({ err }, 'backup schedule check failed'),
  );
  engine.start(opts.alertIntervalMs ?? 30_000);
  app.addHook('onClose', async () => {
    stopScheduler();
    await engine.stop();
  });
  return { bulkOperations: [backupBulkOperation(env)] };
}
