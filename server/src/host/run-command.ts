import { spawn } from 'node:child_process';

export interface RunOptions {
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  signal?: AbortSignal;
  /** Each line of output (stdout and stderr) as it comes, for a job's live output. */
  onLine?: (line: string) => void;
  /** Text for the program's standard input. */
  input?: string;
  /** Exit codes that count as success (default [0]). */
  okCodes?: number[];
}

export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
}

export class CommandFailed extends Error {
  constructor(
    readonly command: string,
    readonly result: RunResult,
  ) {
    const words = (result.stderr || result.stdout).trim().split('\n').slice(-5).join('\n');
    super(`${command} failed (exit ${result.code})${words ? `: ${words}` : ''}`);
  }
}

const MAX_KEEP = 4 * 1024 * 1024;

/** Runs a program without a shell; throws CommandFailed on an unexpected exit code. */
export function runCommand(cmd: string, args: string[], opts: RunOptions = {}): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, {
      cwd: opts.cwd,
      env: opts.env ?? process.env,
      signal: opts.signal,
      stdio: [opts.input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    let pending = '';
    const feed = (chunk: string) => {
      if (!opts.onLine) return;
      pending += chunk;
      const lines = pending.split(/\r?\n|\r/);
      pending = lines.pop() ?? '';
      for (const l of lines) if (l.trim()) opts.onLine(l);
    };
    child.stdout!.setEncoding('utf8').on('data', (c: string) => {
      if (stdout.length < MAX_KEEP) stdout += c;
      feed(c);
    });
    child.stderr!.setEncoding('utf8').on('data', (c: string) => {
      if (stderr.length < MAX_KEEP) stderr += c;
      feed(c);
    });
    if (opts.input !== undefined) child.stdin!.end(opts.input);
    child.on('error', reject);
    child.on('close', (code, sig) => {
      if (pending.trim()) opts.onLine?.(pending);
      const result = { code: code ?? (sig ? 128 : 1), stdout, stderr };
      if ((opts.okCodes ?? [0]).includes(result.code)) resolve(result);
      else reject(new CommandFailed([cmd, ...args].join(' '), result));
    });
  });
}
