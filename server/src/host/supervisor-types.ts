import type { ChildProcess } from 'node:child_process';
import type { ReadinessProbe } from './readiness.ts';
import type { DaemonHold, DaemonName } from './service-control.ts';

/**
 * How to run one daemon in the foreground (or, for a daemon that forks, how to find it), make it
 * reload and stop it. Adjust these, not the supervisor, when a renderer changes its files.
 */
export interface DaemonSpec {
  name: DaemonName;
  /** Absolute path of the program. */
  program: string;
  args: string[];
  /** The rendered main configuration file; the daemon is not started while it is missing. */
  configPath: string;
  /** Up and serving when every probe succeeds. */
  ready: ReadinessProbe[];
  /** A slow starter's own wait for `ready` (the longer of this and the supervisor's readyTimeoutMs). */
  readyTimeoutMs?: number;
  /**
   * Where the daemon writes its own pid (the real daemon's, which differs from the child's when
   * the command is a wrapper such as `postfix start-fg`).
   */
  pidFile?: string;
  /**
   * For a daemon that writes no pid file in the foreground (rspamd -f): a file where the supervisor
   * records the child's pid, so an instance left by a Mailroom that was killed is found and ended
   * at the next start (only when that pid still runs this program).
   */
  recordPid?: string;
  /**
   * Folders the daemon needs before it starts (run and state folders under the host root); an
   * owner is set only on a folder created here.
   */
  folders?: (string | { path: string; owner: string; mode: number })[];
  reload: { signal: NodeJS.Signals } | { command: string; args: string[] };
  /** Stopping: a command (postfix stop), else SIGTERM to the daemon's pid. */
  stop?: { command: string; args: string[] };
  /**
   * The folder whose files only this Mailroom's instance uses (its data folder's host root; default
   * the configuration's folder). A pid left in a pid file is ended at start only when /proc shows
   * that process running this program on files under it: never another instance's, nor the
   * system's, nor a stranger that reused the pid.
   */
  home?: string;
  env?: NodeJS.ProcessEnv;
  /** Where to look when it fails (a daemon that logs only to its log file prints nothing). */
  hint?: string;
}

export interface SupervisorOptions {
  /** First restart delay after a crash; doubled after each crash up to `maxBackoffMs`. */
  backoffMs?: number;
  maxBackoffMs?: number;
  /** Crashes in a row (each before `stableMs` of uptime) after which the daemon is left failed. */
  maxCrashes?: number;
  /** A run that lasted this long resets the crash count. */
  stableMs?: number;
  readyTimeoutMs?: number;
  stopTimeoutMs?: number;
  log?: (msg: string, fields?: Record<string, unknown>) => void;
  /** The clock of the holds' time bounds (tests move it); default Date.now. */
  now?: () => number;
}

export type Phase = 'idle' | 'starting' | 'running' | 'backoff' | 'failed' | 'stopping' | 'stopped';

/** One daemon under the supervisor: its spec, where it is in its life, its last output. */
export interface Slot {
  spec: DaemonSpec;
  phase: Phase;
  child: ChildProcess | null;
  /** Resolves when the current child has exited. */
  exited: Promise<void> | null;
  startedAt: number;
  since: string | null;
  crashes: number;
  restarts: number;
  lastError: string;
  output: string[];
  timer: NodeJS.Timeout | null;
  /** A restart asked for (stop, then start) is under way. */
  restarting: boolean;
  /** An intended stop (a restore): pending until it runs again, is released, or `until` passes. */
  hold: { why: DaemonHold['why']; since: number; until: number } | null;
}

export const OUTPUT_LINES = 20;
export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
