import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import readline from 'node:readline';

/** journalctl, found on PATH (tests put a recording fake first on it). */
export const JOURNALCTL = 'journalctl';

/** True when journald runs on this machine and journalctl is installed. */
export function journaldRuns(): boolean {
  return existsSync('/run/systemd/journal/socket') && existsSync('/usr/bin/journalctl');
}

/**
 * Runs `journalctl` with `args` until stopped, each output line to `onLine`; `onEnd` says why it
 * ended on its own (not started, or exited). Answers the function that stops it.
 */
export function followJournalLines(
  args: string[],
  onLine: (line: string) => void,
  onEnd: (why: string) => void,
): () => void {
  const child = spawn(JOURNALCTL, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr = (stderr + c).slice(-2000)));
  readline.createInterface({ input: child.stdout, crlfDelay: Infinity }).on('line', onLine);
  let stopped = false;
  child.on('error', (err) => onEnd(`journalctl could not be started: ${err.message}`));
  child.on('close', (code) => {
    if (!stopped) onEnd(`journalctl ended (exit ${code ?? 'signal'}): ${stderr.trim().slice(0, 300)}`);
  });
  return () => {
    stopped = true;
    child.kill();
  };
}

/** `journalctl`'s output lines for `args`, streamed; the program is stopped when the reader stops. */
export async function* journalOutputLines(args: string[]): AsyncGenerator<string> {
  const child = spawn(JOURNALCTL, args, { stdio: ['ignore', 'pipe', 'ignore'] });
  try {
    for await (const line of readline.createInterface({ input: child.stdout, crlfDelay: Infinity }))
      yield line;
  } finally {
    child.kill();
  }
}
