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
}

export interface SystemSettingTable {
  name: string;
  value: string;
  updated_at: number;
}

export interface SystemAdminTables {
  system_alerts: SystemAlertTable;
  system_webhooks: SystemWebhookTable;
  webhook_deliveries: WebhookDeliveryTable;
  system_backups: SystemBackupTable;
  system_settings: SystemSettingTable;
}
