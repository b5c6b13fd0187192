import type { Generated } from 'kysely';

export interface BulkRunTable {
  id: Generated<number>;
  operation: string;
  /** planned | running | completed | failed | cancelled */
  state: string;
  actor: string;
  /** JSON BulkConfig (target items, batch size, continue on error). */
  config: string;
  /** JSON: how the items were chosen (kind, filter, selected count; never the CSV's secrets). */
  target: string;
  /** JSON: the operation's options (e.g. the new TTL of an update). */
  options: string | null;
  /** JSON: the plan's counts by action. */
  plan_counts: string;
  /** Items to act on (the plan's create/update/delete/run items). */
  total: number;
  job_id: number | null;
  retry_of: number | null;
  /** Why the run stopped early (a failure, the failure budget, a failed apply). */
  cause: string | null;
  /** The item being worked on (spec §3.5 currentItemName). */
  current_item: string | null;
  cancel_requested: Generated<number>;
  /** Batches committed so far. */
  batches: Generated<number>;
  /** Hidden from the history (Clear History); the audit log keeps the run. */
  cleared: Generated<number>;
  created_at: number;
  started_at: number | null;
  finished_at: number | null;
}

export interface BulkItemTable {
  id: Generated<number>;
  run_id: number;
  seq: number;
  item_key: string;
  label: string;
  /** create | update | delete | run | skip | invalid */
  action: string;
  reason: string | null;
  /** JSON input of the item (secrets sealed; removed once the item is done). */
  payload: string | null;
  /** pending | succeeded | failed | not_processed | skipped */
  state: string;
  attempt: Generated<number>;
  batch: number | null;
  error_code: string | null;
  error_message: string | null;
  before: string | null;
  after: string | null;
  done_at: number | null;
}

export interface BulkPreferenceTable {
  admin_email: string;
  operation: string;
  enabled: number;
  config: string;
  updated_at: number;
}

export interface BulkTables {
  bulk_runs: BulkRunTable;
  bulk_items: BulkItemTable;
  bulk_preferences: BulkPreferenceTable;
}
