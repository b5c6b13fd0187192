/** Per-administrator state of one server notification (issue 12: read state kept across reloads). */
export interface NotificationMarkTable {
  admin_id: number;
  notification_id: number;
  /** 1 once this administrator read it. */
  read: number;
  /** 1 once this administrator cleared it from the bell. */
  cleared: number;
}

/**
 * "Mark all read" and "Clear all" for one administrator: every notification up to these ids, so
 * the action is one row however many notifications exist.
 */
export interface NotificationWatermarkTable {
  admin_id: number;
  read_upto: number;
  cleared_upto: number;
}

export interface ConsoleTables {
  notification_marks: NotificationMarkTable;
  notification_watermarks: NotificationWatermarkTable;
}
