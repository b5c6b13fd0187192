import type { SystemProcess } from '@mailroom/contract/system-live';
import { AppError } from '../../../http/errors.ts';
import { processAlive as alive, signalProcess, zombieOrGone } from '../../../host/process-signals.ts';
import type { ProcessTable } from '../../../host/process-table.ts';
import { ERROR_CODES } from '@mailroom/contract/errors';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Mailroom's own processes: this one, its cluster primary and workers (same parent). */
function ownPids(table: { pid: number; ppid: number; name: string }[]): Set<number> {
  const own = new Set<number>([process.pid, process.ppid]);
  // The cluster primary's other workers share our parent when it is a Mailroom primary.
  const parent = table.find((r) => r.pid === process.ppid);
  const self = table.find((r) => r.pid === process.pid);
  if (parent && self && process.env.NODE_UNIQUE_ID !== undefined) {
    for (const r of table) if (r.ppid === parent.pid && r.name === self.name) own.add(r.pid);
  }
  return own;
}

const refused = (message: string) => new AppError(403, ERROR_CODES.FORBIDDEN, message);

export async function listProcessesNow(table: ProcessTable): Promise<SystemProcess[]> {
  return table.read();
}

/**
 * Sends SIGTERM (or SIGKILL, after a second confirmation in the console) to a process. Never to
 * PID 1 or Mailroom's own processes. Waits up to 2 s to tell whether it exited.
 */
export async function killProcess(
  table: ProcessTable,
  pid: number,
  signal: 'SIGTERM' | 'SIGKILL',
): Promise<{ pid: number; signal: 'SIGTERM' | 'SIGKILL'; exited: boolean; message: string }> {
  if (pid === 1) throw refused('PID 1 is the init process; killing it would stop the machine. Refused.');
  const rows = await table.read();
  if (ownPids(rows).has(pid))
    throw refused(
      `PID ${pid} is Mailroom itself; stop Mailroom with systemctl stop mailroom instead. Refused.`,
    );
  const row = rows.find((r) => r.pid === pid);
  if (!row || !alive(pid)) throw new AppError(404, ERROR_CODES.NOT_FOUND, `No process with PID ${pid}.`);
  try {
    signalProcess(pid, signal);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ESRCH') throw new AppError(404, ERROR_CODES.NOT_FOUND, `No process with PID ${pid}.`);
    throw refused(`Not allowed to signal PID ${pid} (${row.name}): ${code ?? 'error'}.`);
  }
  let exited = false;
  for (let i = 0; i < 20 && !exited; i++) {
    await sleep(100);
    exited = !alive(pid) || (await zombieOrGone(pid));
  }
  return {
    pid,
    signal,
    exited,
    message: exited
      ? `${row.name} (PID ${pid}) ended after ${signal}.`
      : `${signal} sent to ${row.name} (PID ${pid}), but it is still running${signal === 'SIGTERM' ? '; confirm again to send SIGKILL' : ''}.`,
  };
}
