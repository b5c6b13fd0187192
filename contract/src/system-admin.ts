import { z } from 'zod';
import { JobAccepted } from './jobs.ts';
import { fieldMessages } from './messages.ts';
import { defineRoute } from './route.ts';
import { emailField, queryInt, requiredString } from './validators.ts';

// ---------------------------------------------------------------------------------------------
// System settings (spec §2.10 modal and table, §5 rules)

/** Spec §3.3 System settings form; §5: the modal's rules and messages. */
export const SystemSettingsForm = z.object({
  systemName: requiredString('System Name').pipe(
    z.string().max(100, 'System Name must be at most 100 characters'),
  ),
  adminEmail: emailField('Admin Email'),
  timezone: requiredString('Timezone').refine((v) => isTimezone(v), 'Please choose a valid timezone'),
  maintenanceMode: z.boolean().optional(),
});
export type SystemSettingsForm = z.infer<typeof SystemSettingsForm>;

/** An IANA time zone name the runtime knows (UTC included). */
export function isTimezone(v: string): boolean {
  if (v === 'UTC') return true;
  try {
    new Intl.DateTimeFormat('en', { timeZone: v });
    return /^[A-Za-z_]+(\/[A-Za-z0-9_+-]+)*$/.test(v);
  } catch {
    return false;
  }
}

export const SettingCategory = z.enum(['General', 'Security', 'Network', 'Storage']);
/** Spec §3.3 System setting: one row of the settings table. */
export const SystemSetting = z.object({
  id: z.string(),
  category: SettingCategory,
  name: z.string(),
  value: z.string(),
  defaultValue: z.string(),
  modified: z.boolean(),
  type: z.enum(['string', 'email', 'select']),
  description: z.string(),
  required: z.boolean(),
  options: z.array(z.object({ label: z.string(), value: z.string() })).optional(),
});
export type SystemSetting = z.infer<typeof SystemSetting>;

export const SystemSettingsAnswer = z.object({
  form: z.object({
    systemName: z.string(),
    adminEmail: z.string(),
    timezone: z.string(),
    maintenanceMode: z.boolean(),
  }),
  settings: z.array(SystemSetting),
});
export type SystemSettingsAnswer = z.infer<typeof SystemSettingsAnswer>;

/** Table edits: setting id → new value (as text); each is checked by its own rule. */
export const SettingValues = z.object({
  values: z.record(z.string().max(64), z.string().max(1000)),
});

export const MAINTENANCE_CODE = 'MAINTENANCE';
export const MAINTENANCE_MESSAGE =
  'Mailroom is in maintenance mode: changes are refused until an administrator turns maintenance mode off in System Settings.';

// ---------------------------------------------------------------------------------------------
// Updates (spec §3.3 Update; catalogue GET updates, POST updates/install)

export const UpdatePriority = z.enum(['security', 'important', 'optional']);
export const SystemUpdate = z.object({
  id: z.string(),
  package: z.string(),
  currentVersion: z.string(),
  availableVersion: z.string(),
  priority: UpdatePriority,
  description: z.string(),
  size: z.string(),
  source: z.string(),
  installed: z.boolean(),
  installDate: z.string().optional(),
  /** Whether uninstalling makes sense (not essential/required, removes nothing else). */
  removable: z.boolean(),
});
export type SystemUpdate = z.infer<typeof SystemUpdate>;

export const UpdatesAnswer = z.object({
  updates: z.array(SystemUpdate),
  /** When the package lists were last refreshed (apt-get update), if known. */
  checkedAt: z.string().nullable(),
  /**
   * When this list was read from apt (the server keeps one reading for every worker and answers
   * it at once); null before the first reading is done.
   */
  readAt: z.string().nullable().optional(),
  /** The list is out of date (older than a minute, or an update job ended) and is being read again. */
  refreshing: z.boolean().optional(),
});
export type UpdatesAnswer = z.infer<typeof UpdatesAnswer>;

const PACKAGE_RE = /^[a-z0-9][a-z0-9+.-]{0,99}$/;
export const packageName = z
  .string({ error: 'Package is required' })
  .regex(PACKAGE_RE, 'Package must be a Debian package name (a-z, 0-9, +, -, .)');
export const InstallUpdatesBody = z.object({
  /** The packages to upgrade; absent or empty: every upgradable package (Install All). */
  packages: z.array(packageName).max(500).optional(),
});
export const RemovePackageBody = z.object({ package: packageName });

// ---------------------------------------------------------------------------------------------
// Backups (spec §3.3 Backup; catalogue GET backup/status, POST backup/start)

export const BackupType = z.enum(['Full', 'Incremental']);
export const SystemBackup = z.object({
  id: z.number(),
  name: z.string(),
  type: BackupType,
  status: z.enum(['active', 'completed', 'failed', 'expired']),
  size: z.string(),
  sizeBytes: z.number(),
  createdAt: z.string(),
  expiresAt: z.string().nullable(),
  location: z.string(),
  description: z.string(),
  baseId: z.number().nullable(),
  message: z.string().nullable(),
  verifiedAt: z.string().nullable(),
  verifyResult: z.string().nullable(),
  /**
   * What the backup holds: `system` (the database, the data folder and the daemon files) or
   * `site <domain>` (one virtual host's files, made on that site's own schedule and retention).
   */
  scope: z.string(),
});
export type SystemBackup = z.infer<typeof SystemBackup>;

export const BackupStatusAnswer = z.object({
  backups: z.array(SystemBackup),
  /** The latest verified drill: restore into a scratch folder, counts and checksums compared. */
  lastVerified: z
    .object({ at: z.string(), backupId: z.number(), ok: z.boolean(), result: z.string() })
    .nullable(),
  schedule: z.object({ frequency: z.string(), hour: z.number(), retentionDays: z.number() }),
});
export type BackupStatusAnswer = z.infer<typeof BackupStatusAnswer>;

export const StartBackupBody = z.object({
  type: z.enum(['full', 'incremental']).optional(),
  description: z.string().max(200, 'Description must be at most 200 characters').optional(),
});
export const BackupIdParams = z.object({ id: queryInt(1, undefined, 'Backup id') });

// ---------------------------------------------------------------------------------------------
// Webhooks (alerts reach chat or paging)

export const Webhook = z.object({
  id: z.number(),
  url: z.string(),
  enabled: z.boolean(),
  createdAt: z.string(),
});
export const WebhookDelivery = z.object({
  id: z.number(),
  event: z.string(),
  state: z.enum(['pending', 'delivered', 'failed']),
  attempts: z.number(),
  lastStatus: z.number().nullable(),
  lastError: z.string().nullable(),
  createdAt: z.string(),
  deliveredAt: z.string().nullable(),
});
export const WebhookBody = z.object({
  url: z
    .string({ error: fieldMessages.required('URL') })
    .trim()
    .min(1, fieldMessages.required('URL'))
    .max(2000)
    .refine(
      (v) => /^https?:\/\/[^\s]+$/i.test(v) && URL.canParse(v),
      'URL must be an http:// or https:// address',
    ),
  secret: z
    .string({ error: fieldMessages.required('Secret') })
    .min(16, 'Secret must be at least 16 characters')
    .max(200, 'Secret must be at most 200 characters'),
});
export const WebhookIdParams = z.object({ id: queryInt(1, undefined, 'Webhook id') });

export const systemAdminRoutes = {
  settings: defineRoute({
    method: 'GET',
    path: 'system/settings',
    summary: 'System settings: the modal form and the settings table',
    tags: ['system'],
    response: SystemSettingsAnswer,
  }),
  saveForm: defineRoute({
    method: 'PUT',
    path: 'system/settings',
    summary: 'Save the System Settings modal (works in maintenance mode, to turn it off)',
    tags: ['system'],
    body: SystemSettingsForm,
    response: SystemSettingsAnswer,
    audit: 'system.settings.update',
  }),
  saveValues: defineRoute({
    method: 'PUT',
    path: 'system/settings/values',
    summary: 'Save edited rows of the settings table',
    tags: ['system'],
    body: SettingValues,
    response: SystemSettingsAnswer,
    audit: 'system.settings.update',
  }),
  resetAll: defineRoute({
    method: 'POST',
    path: 'system/settings/reset',
    summary: 'Reset every setting to its default',
    tags: ['system'],
    response: SystemSettingsAnswer,
    audit: 'system.settings.reset',
  }),
  updates: defineRoute({
    method: 'GET',
    path: 'updates',
    summary: 'Upgradable packages (from the package lists) and updates installed through Mailroom',
    tags: ['system'],
    response: UpdatesAnswer,
  }),
  checkUpdates: defineRoute({
    method: 'POST',
    path: 'updates/check',
    summary: 'Refresh the package lists (apt-get update), as a job',
    tags: ['system'],
    response: JobAccepted,
    accepted: JobAccepted,
    audit: 'system.updates.check',
  }),
  installUpdates: defineRoute({
    method: 'POST',
    path: 'updates/install',
    summary: 'Install one, several or all updates, as a job with live output',
    tags: ['system'],
    body: InstallUpdatesBody,
    response: JobAccepted,
    accepted: JobAccepted,
    audit: 'system.updates.install',
  }),
  removePackage: defineRoute({
    method: 'POST',
    path: 'updates/remove',
    summary: 'Uninstall a package where that makes sense, as a job',
    tags: ['system'],
    body: RemovePackageBody,
    response: JobAccepted,
    accepted: JobAccepted,
    audit: 'system.updates.remove',
  }),
  backupStatus: defineRoute({
    method: 'GET',
    path: 'backup/status',
    summary: 'Backups, the schedule and the last verified restore drill',
    tags: ['system'],
    response: BackupStatusAnswer,
  }),
  startBackup: defineRoute({
    method: 'POST',
    path: 'backup/start',
    summary: 'Create a full or incremental backup, as a job',
    tags: ['system'],
    body: StartBackupBody,
    response: JobAccepted,
    accepted: JobAccepted,
    audit: 'system.backup.start',
  }),
  downloadBackup: defineRoute({
    method: 'GET',
    path: 'backups/:id/download',
    summary: 'The backup archive (a tar file)',
    tags: ['system'],
    params: BackupIdParams,
    response: z.string().describe('The archive, streamed'),
  }),
  deleteBackup: defineRoute({
    method: 'DELETE',
    path: 'backups/:id',
    summary: 'Delete a backup and its archive',
    tags: ['system'],
    params: BackupIdParams,
    response: z.object({ deleted: z.number() }),
    audit: 'system.backup.delete',
  }),
  restoreBackup: defineRoute({
    method: 'POST',
    path: 'backups/:id/restore',
    summary: 'Restore the data and files to this backup, as a job',
    tags: ['system'],
    params: BackupIdParams,
    response: JobAccepted,
    accepted: JobAccepted,
    audit: 'system.backup.restore',
  }),
  verifyBackup: defineRoute({
    method: 'POST',
    path: 'backups/:id/verify',
    summary: 'Restore drill: unpack into a scratch folder and compare counts and checksums, as a job',
    tags: ['system'],
    params: BackupIdParams,
    response: JobAccepted,
    accepted: JobAccepted,
    audit: 'system.backup.verify',
  }),
  webhooks: defineRoute({
    method: 'GET',
    path: 'system/webhooks',
    summary: 'Webhooks that receive alerts',
    tags: ['system'],
    response: z.object({ webhooks: z.array(Webhook) }),
  }),
  addWebhook: defineRoute({
    method: 'POST',
    path: 'system/webhooks',
    summary: 'Add a webhook (the body is signed with HMAC-SHA256 of the secret)',
    tags: ['system'],
    body: WebhookBody,
    response: Webhook,
    audit: 'system.webhook.create',
  }),
  deleteWebhook: defineRoute({
    method: 'DELETE',
    path: 'system/webhooks/:id',
    summary: 'Delete a webhook',
    tags: ['system'],
    params: WebhookIdParams,
    response: z.object({ deleted: z.number() }),
    audit: 'system.webhook.delete',
  }),
  testWebhook: defineRoute({
    method: 'POST',
    path: 'system/webhooks/:id/test',
    summary: 'Send a test event to a webhook',
    tags: ['system'],
    params: WebhookIdParams,
    response: z.object({ deliveryId: z.number() }),
    audit: 'system.webhook.test',
  }),
  deliveries: defineRoute({
    method: 'GET',
    path: 'system/webhooks/:id/deliveries',
    summary: 'The latest deliveries of a webhook',
    tags: ['system'],
    params: WebhookIdParams,
    response: z.object({ deliveries: z.array(WebhookDelivery) }),
  }),
};
