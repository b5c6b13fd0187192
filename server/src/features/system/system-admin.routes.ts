import { systemAlertRoutes } from '@mailroom/contract/system-alerts';
import { systemAdminRoutes as r } from '@mailroom/contract/system-admin';
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../app-deps.ts';
import type { Apt } from '../../host/apt.ts';
import { fileStream, makeFolder } from '../../host/data-files.ts';
import { conflict } from '../../http/errors.ts';
import { registerRoute } from '../../http/register-route.ts';
import { acknowledgeAlert, acknowledgeAll, listAlerts } from './alerts/alert.service.ts';
import {
  BACKUP_JOB,
  type BackupEnv,
  backupChain,
  backupFile,
  backupStatus,
  deleteBackup,
  insertBackupRow,
  RESTORE_JOB,
  VERIFY_JOB,
} from './backups/backup.service.ts';
import {
  formToValues,
  readSettingValues,
  resetAllSettings,
  saveSettingValues,
  toAnswer,
} from './settings/system-settings.service.ts';
import { CHECK_JOB, checkRemovable, INSTALL_JOB, REMOVE_JOB } from './updates/updates.service.ts';
import type { UpdatesReading } from './updates/updates-reading.service.ts';
import {
  addWebhook,
  deleteWebhook,
  listDeliveries,
  listWebhooks,
  queueEvent,
} from './webhooks/webhook.service.ts';

/** What the module built for the routes: the backups' environment, apt and the updates reading. */
export interface SystemAdminParts {
  env: BackupEnv;
  apt: Apt;
  reading: UpdatesReading;
}

/** The HTTP side of system administration: settings, alerts and webhooks, updates, backups and restores. */
export function registerSystemAdminRoutes(
  app: FastifyInstance,
  deps: AppDeps,
  parts: SystemAdminParts,
): void {
  const { env, apt, reading } = parts;
  const db = deps.database.db;
  const jobs = deps.jobs!;
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
  registerRoute(app, r.backupStatus, async () => backupStatus(env));
  registerRoute(app, r.startBackup, async ({ body, request, reply }) => {
    const type = body.type ?? 'full';
    await makeFolder(env.backupDir, 0o700);
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
}
