import type { Generated } from 'kysely';

export interface SystemAlertTable {
  id: Generated<number>;
  type: string;
  condition_key: string;
  severity: string;
  title: string;
  message: string;
  raised_at: number;
  resolved_at: number | null;
  acknowledged_by: string | null;
  acknowledged_at: number | null;
}

export interface SystemWebhookTable {
  id: Generated<number>;
  url: string;
  secret: string;
  enabled: number;
  created_at: number;
}

export interface WebhookDeliveryTable {
  id: Generated<number>;
  webhook_id: number;
  event: string;
  body: string;
  state: string;
  attempts: number;
  last_status: number | null;
  last_error: string | null;
  created_at: number;
  delivered_at: number | null;
}

export interface SystemBackupTable {
  id: Generated<number>;
  name: string;
  type: string;
  status: string;
  base_id: number | null;
  file: string | null;
  size: number;
  sha256: string | null;
  trigger: string;
  description: string;
  message: string | null;
  created_at: number;
  finished_at: number | null;
  expires_at: number | null;
  verified_at: number | null;
  verify_result: string | null;
  /** A site's own backup (migration 0035): the virtual host's id and name; null for a system backup. */
  site_id: number | null;
  site_domain: string | null;
  /** An application's own backup of its data folder (migration 0043): its id and name; null otherwise. */
  app_id: number | null;
  app_name: string | null;
}

export interface SystemSettingTable {
  name: string;
  value: string;
  updated_at: number;
}

/**
 * The one persisted reading of the upgradable packages (row id 1): apt takes seconds to list and
 * describe them, so every worker and instance answers from this row at once while one of them
 * refreshes it in the background (migration 0037).
 */
export interface UpdatesReadingTable {
  id: number;
  /** The answer as read (JSON: updates and checkedAt); null before the first reading. */
  body: string | null;
  /** The update jobs' version it was read at (the newest check/install/uninstall that ended). */
  version: string;
  /** When the reading began (ms); null before the first. */
  read_at: number | null;
  /** When a process began refreshing it (ms), a lease so one process runs apt at a time. */
  refresh_started_at: number | null;
}

export interface SystemAdminTables {
  updates_reading: UpdatesReadingTable;
  system_alerts: SystemAlertTable;
  system_webhooks: SystemWebhookTable;
  webhook_deliveries: WebhookDeliveryTable;
  system_backups: SystemBackupTable;
  system_settings: SystemSettingTable;
}
