import { spawn } from 'node:child_process';

export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
}

export interface BoundedRunOptions {
  timeoutMs?: number;
  env?: NodeJS.ProcessEnv;
  input?: string;
}

const MAX_OUTPUT = 32 * 1024 * 1024;
/** How long a timed-out group has between SIGTERM and SIGKILL. */
const KILL_GRACE_MS = 2_000;
/** How long output may stay open after the program exited (a child it left behind holds it). */
const CLOSE_GRACE_MS = 1_000;

/**
 * Runs a program without a shell and always answers, within `timeoutMs` and a few seconds more.
 * The program runs in a process group of its own: a timeout ends the whole group, not only the
 * first process. And the answer comes when the program exits, not when its output closes: a
 * helper it left running with the output still open (execFile waits for that) cannot hold the
 * caller. Never throws; a program that cannot start answers code 127.
 */
export function boundedRun(cmd: string, args: string[], opts: BoundedRunOptions = {}): Promise<RunResult> {
  const timeoutMs = opts.timeoutMs ?? 30_000;
  const command = [cmd, ...args].join(' ');
  return new Promise((resolve) => {
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let size = 0;
    let problem: string | null = null;
    let finished = false;
    const timers: NodeJS.Timeout[] = [];
    const child = spawn(cmd, args, {
      env: opts.env ?? process.env,
      detached: true,
      stdio: [opts.input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
    });
    const killGroup = (signal: NodeJS.Signals) => {
      try {
        if (child.pid) process.kill(-child.pid, signal);
      } catch {
        /* the group is gone */
      }
    };
    const finish = (code: number | null) => {
      if (finished) return;
      finished = true;
      for (const t of timers) clearTimeout(t);
      child.stdout?.destroy();
      child.stderr?.destroy();
      const stdout = Buffer.concat(out).toString('utf8');
      const stderr = Buffer.concat(err).toString('utf8');
      const failed = problem !== null || code !== 0;
      resolve({
        code: problem !== null || code === null ? 127 : code,
        stdout,
        stderr: failed && !stderr ? `Command failed: ${command}${problem ? ` (${problem})` : ''}\n` : stderr,
      });
    };
    const collect = (into: Buffer[]) => (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_OUTPUT) {
        problem ??= 'output over 32 MiB';
        killGroup('SIGKILL');
        return;
      }
      into.push(chunk);
    };
    child.stdout!.on('data', collect(out));
    child.stderr!.on('data', collect(err));
    child.on('error', (e) => {
      problem ??= e.message;
      finish(null);
    });
    let exitCode: number | null = null;
    child.on('exit', (code) => {
      exitCode = code;
      timers.push(setTimeout(() => finish(exitCode), CLOSE_GRACE_MS));
    });
    child.on('close', (code) => finish(code ?? exitCode));
    timers.push(
      setTimeout(() => {
        problem ??= `timed out after ${Math.round(timeoutMs / 1000)} s`;
        killGroup('SIGTERM');
        timers.push(setTimeout(() => killGroup('SIGKILL'), KILL_GRACE_MS));
        timers.push(setTimeout(() => finish(null), KILL_GRACE_MS + CLOSE_GRACE_MS));
      }, timeoutMs),
    );
    if (opts.input !== undefined) {
      child.stdin!.on('error', () => undefined);
      child.stdin!.end(opts.input);
    }
  });
}
