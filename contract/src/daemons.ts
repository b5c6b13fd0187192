import { z } from 'zod';

/** The daemons Mailroom renders files for (and, in local mode, runs). */
export const DaemonName = z.enum(['postfix', 'dovecot', 'rspamd', 'named']);

/**
 * One daemon's real state, for the instance that uses Mailroom's files. running / stopped / failed /
 * not-installed / unmanaged (not run by Mailroom); `detail` says why, and the fix when it is not running.
 */
export const DaemonStatus = z.object({
  name: DaemonName,
  state: z.enum(['running', 'stopped', 'failed', 'not-installed', 'unmanaged']),
  pid: z.number().int().nullable(),
  since: z.string().nullable(),
  detail: z.string(),
  /**
   * Set while it is not running on purpose: Mailroom is starting, stopping or restarting it, or
   * stopped it for a restore. Not a daemon that is down (no "Service down" alert).
   */
  pending: z.enum(['starting', 'stopping', 'restarting', 'restore']).optional(),
});
export type DaemonStatus = z.infer<typeof DaemonStatus>;

/** What each state is called on screen. */
export const DAEMON_STATE_LABELS: Record<DaemonStatus['state'], string> = {
  running: 'Running',
  stopped: 'Stopped',
  failed: 'Failed',
  'not-installed': 'Not installed',
  unmanaged: 'Not run by Mailroom',
};

/** What a daemon that is not running on purpose is called on screen (instead of its state). */
export const DAEMON_PENDING_LABELS: Record<NonNullable<DaemonStatus['pending']>, string> = {
  starting: 'Starting',
  stopping: 'Stopping',
  restarting: 'Restarting',
  restore: 'Stopped for restore',
};
