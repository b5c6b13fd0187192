import type { SystemAlert } from '@mailroom/contract/system-alerts';

/** The alert engine's shapes, shared by the conditions, the tracker and the engine. */

export type Severity = SystemAlert['severity'];

/** A condition that holds now; `key` identifies it so it is raised once and resolved when over. */
export interface Condition {
  key: string;
  type: string;
  severity: Severity;
  title: string;
  message: string;
}

/** What the sources say now: the conditions that hold, and the keys whose state is not known. */
export interface Evaluation {
  conditions: Condition[];
  /**
   * Keys that are neither holding nor over right now: a daemon Mailroom is starting, stopping or
   * restarting on purpose, or has not started yet. Their alerts are neither raised nor resolved.
   */
  unknown: Set<string>;
}

/** Milliseconds a condition must hold before it raises, and be over before its alert resolves. */
export interface ConditionTiming {
  raiseAfterMs: number;
  resolveAfterMs: number;
}

/** Another area's conditions that hold now. */
export type AlertSource = () => Promise<Condition[]>;

/**
 * An alert changes: raised (new), escalated (an open alert whose condition got worse: warning to
 * critical; sent as `alert.raised` again, with the new severity), resolved.
 */
export type AlertChange = {
  event: 'alert.raised' | 'alert.resolved';
  alert: SystemAlert;
  escalated?: boolean;
};
