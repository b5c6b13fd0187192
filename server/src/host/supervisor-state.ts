import type { DaemonState, DaemonName } from './service-control.ts';
import type { Slot } from './supervisor-types.ts';

/** What the Services card says of a supervised daemon: its slot's phase, hold and last error, in words. */
export function slotState(
  name: DaemonName,
  slot: Slot,
  pid: number | null,
  hold: Slot['hold'],
  maxCrashes: number,
): DaemonState {
  const tail = slot.output.slice(-3).join(' | ');
  const why =
    slot.lastError + (tail ? ` Last output: ${tail}` : '') + (slot.spec.hint ? ` ${slot.spec.hint}` : '');
  // Stopped (or stopping, or starting again) on purpose for a restore: not down, and not running.
  if (hold && slot.phase !== 'running' && slot.phase !== 'failed' && slot.phase !== 'backoff')
    return {
      name,
      state: 'stopped',
      pid: slot.phase === 'stopped' || slot.phase === 'idle' ? null : pid,
      since: null,
      detail: `Stopped for a restore since ${new Date(hold.since).toISOString().slice(11, 19)} UTC; Mailroom starts it again when the restore ends.`,
      pending: 'restore',
    };
  if (slot.restarting && slot.phase !== 'running' && slot.phase !== 'failed' && slot.phase !== 'backoff')
    return {
      name,
      state: 'stopped',
      pid,
      since: null,
      detail: `Restarting from ${slot.spec.configPath}.`,
      pending: 'restarting',
    };
  switch (slot.phase) {
    case 'running':
      return {
        name,
        state: 'running',
        pid,
        since: slot.since,
        detail: `Run by Mailroom from ${slot.spec.configPath}${slot.restarts ? ` (restarted ${slot.restarts} time${slot.restarts === 1 ? '' : 's'})` : ''}.`,
      };
    case 'starting':
      return {
        name,
        state: 'stopped',
        pid,
        since: null,
        detail: `Starting from ${slot.spec.configPath}.`,
        pending: 'starting',
      };
    case 'backoff':
      return {
        name,
        state: 'failed',
        pid: null,
        since: null,
        detail: `${why} Mailroom restarts it shortly (attempt ${slot.crashes + 1} of ${maxCrashes}).`,
      };
    case 'failed':
      return {
        name,
        state: 'failed',
        pid: null,
        since: null,
        detail: `${why} Mailroom gave up after ${slot.crashes} failed start${slot.crashes === 1 ? '' : 's'}; fix the cause and save the settings again, or restart Mailroom.`,
      };
    case 'stopping':
      return { name, state: 'stopped', pid, since: null, detail: 'Stopping.', pending: 'stopping' };
    case 'idle':
      // Never started yet, or its restart after a crash is about to begin.
      return {
        name,
        state: 'stopped',
        pid: null,
        since: null,
        detail: slot.lastError || 'Not started yet.',
        ...(slot.lastError ? {} : { pending: 'starting' as const }),
      };
    case 'stopped':
      return {
        name,
        state: 'stopped',
        pid: null,
        since: null,
        detail: slot.lastError || 'Not started.',
        // Its files are not rendered yet: Mailroom starts it once they are.
        ...(/has not been rendered yet/.test(slot.lastError) ? { pending: 'starting' as const } : {}),
      };
  }
}
