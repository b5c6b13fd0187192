/** The daemons Mailroom renders files for and reloads after a checked change. */
export type DaemonName = 'postfix' | 'dovecot' | 'rspamd' | 'named';

export interface DaemonState {
  name: DaemonName;
  /**
   * running: up, from Mailroom's files; stopped: not running (and `detail` says why and the fix);
   * failed: exited or refused to start; not-installed: the program is missing;
   * unmanaged: Mailroom neither runs nor reloads it (local mode with MAILROOM_RUN_DAEMONS=0, say).
   */
  state: 'running' | 'stopped' | 'failed' | 'not-installed' | 'unmanaged';
  pid: number | null;
  /** ISO time the current process started, when running. */
  since: string | null;
  /** One plain sentence: what is true, and the fix when it is not running. */
  detail: string;
  /**
   * Set while it is not running on purpose and on its way: Mailroom (or systemd) is starting,
   * stopping or restarting it, or has not started it yet. Not a daemon that is down.
   */
  pending?: DaemonPending;
}

/**
 * Why a daemon is not running on purpose: Mailroom is starting, stopping or restarting it, or
 * stopped it for a restore (until the restore starts it again, or the hold's time bound passes).
 */
export type DaemonPending = 'starting' | 'stopping' | 'restarting' | 'restore';

/**
 * An intended stop: while it holds, the daemon's state says `pending` (not down) until it runs
 * again, `release` is called, or `forMs` passes (a crashed action never leaves it pending for ever;
 * a long action renews it).
 */
export interface DaemonHold {
  why: 'restore';
  forMs: number;
}

export interface ReloadResult {
  /** False when the reload was attempted and failed; true when done or deliberately skipped. */
  ok: boolean;
  /** Whether a reload was really attempted (false: reloads are off, or the daemon is not run). */
  attempted: boolean;
  /** The command's own words, or why nothing was attempted. */
  output: string;
}

/**
 * Reloads and reports the daemons. In system mode systemd runs them and this only reloads; in local
 * mode Mailroom's own supervisor starts, supervises and reloads them on loopback ports.
 */
export interface ServiceControl {
  /** Makes `name` pick up its new files. `zones`: for named, reload only these zones. */
  reload(name: DaemonName, opts?: { zones?: string[]; reconfig?: boolean }): Promise<ReloadResult>;
  states(): Promise<DaemonState[]>;
  /**
   * Starts, stops or restarts a daemon this control runs itself (local mode's supervisor); absent
   * where systemd runs them (system mode uses systemctl).
   */
  control?(name: DaemonName, action: 'start' | 'stop' | 'restart'): Promise<ReloadResult>;
  /**
   * Marks (or, with null, unmarks) an intended stop of `name` before it happens, where the
   * screens and the alerts engine read the states; absent where systemd runs them.
   */
  hold?(name: DaemonName, hold: DaemonHold | null): Promise<void>;
  /** Stops what this control started (local mode); a no-op in system mode. */
  close(): Promise<void>;
  /** 'local': Mailroom's own supervisor (daemons on loopback at config.ports); 'system': systemd. */
  readonly mode?: 'local' | 'system';
}
