import { type ChildProcess, execFile } from 'node:child_process';
import { promises as fs } from 'node:fs';

/** Helpers the app-process files share (not re-exported by app-process.ts). */

export const isRoot = () => typeof process.getuid === 'function' && process.getuid() === 0;

export function exec(cmd: string, args: string[]): Promise<{ ok: boolean; out: string }> {
  return new Promise((resolve) => {
    execFile(cmd, args, { timeout: 30_000 }, (err, stdout, stderr) => {
      resolve({ ok: !err, out: `${String(stdout)}${String(stderr)}`.trim() || (err ? err.message : '') });
    });
  });
}

/**
 * A start gate: `sh` waits for one line on its stdin, then execs the command (same pid). Mailroom
 * moves the pid into its cgroup first and then opens the gate, so not one instruction of the
 * command runs outside its limits (and its children are born inside).
 */
export const GATE = ['/bin/sh', '-c', 'read _ && exec "$@"', 'mailroom-gate'];

export function openGate(
  child: ChildProcess,
  confine: (pid: number) => Promise<void>,
  onError: (m: string) => void,
) {
  // A child that died before the gate opened: the write fails quietly (its exit is handled).
  child.stdin?.on('error', () => undefined);
  const open = () => child.stdin?.end('\n');
  if (!child.pid) return open();
  void confine(child.pid)
    .catch((err: unknown) => onError(`limits: ${String(err)}`))
    .finally(open);
}

export function lines(stream: NodeJS.ReadableStream, onLine: (l: string) => void): void {
  let pending = '';
  stream.setEncoding('utf8');
  stream.on('data', (c: string) => {
    pending += c;
    const parts = pending.split(/\r?\n/);
    pending = parts.pop() ?? '';
    for (const l of parts) onLine(l);
  });
  stream.on('end', () => {
    if (pending) onLine(pending);
  });
}

/** Written whole or not at all (a reader never sees an empty file). */
export async function writePidFile(file: string, pid: number): Promise<void> {
  const tmp = `${file}.${pid}.tmp`;
  await fs
    .writeFile(tmp, `${pid}\n`, { mode: 0o600 })
    .then(() => fs.rename(tmp, file))
    .catch(() => fs.rm(tmp, { force: true }));
}
