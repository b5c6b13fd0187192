import { promises as fs } from 'node:fs';
import { parseStat } from './process-table.ts';

/** True while a process with this PID exists (also when it is not ours to signal). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Sends `signal` to `pid`; throws the system's error (ESRCH, EPERM…) as `process.kill` does. */
export function signalProcess(pid: number, signal: NodeJS.Signals): void {
  process.kill(pid, signal);
}

/** A zombie has ended; only its parent has not collected it yet. */
export async function zombieOrGone(pid: number): Promise<boolean> {
  const text = await fs.readFile(`/proc/${pid}/stat`, 'utf8').catch(() => null);
  if (text === null) return true;
  return parseStat(text)?.state === 'Z';
}
