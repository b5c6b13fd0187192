import { spawn } from 'node:child_process';
import { GATE, lines, openGate } from './app-process-internals.ts';
import type { RunAs } from './app-process-user.ts';

/**
 * Runs a build step (argument array, no shell) in `cwd` as the app's user, at lower CPU priority
 * (nice 10) so a build cannot starve the mail daemons. Answers the exit code.
 */
export function runBuildStep(
  argv: string[],
  opts: {
    cwd: string;
    env: NodeJS.ProcessEnv;
    runAs: RunAs;
    onLine: (stream: 'stdout' | 'stderr', line: string) => void;
    signal?: AbortSignal;
    timeoutMs: number;
    /** Called with its pid before the command runs (held at a start gate: moved into the build's cgroup). */
    onSpawn?: (pid: number) => Promise<void>;
  },
): Promise<number> {
  return new Promise((resolve) => {
    const niced = ['nice', '-n', '10', '--', ...argv];
    const [cmd, ...args] = opts.onSpawn ? [...GATE, ...niced] : niced;
    const child = spawn(cmd!, args, {
      cwd: opts.cwd,
      env: opts.env,
      stdio: [opts.onSpawn ? 'pipe' : 'ignore', 'pipe', 'pipe'],
      detached: true,
      ...(opts.runAs ? { uid: opts.runAs.uid, gid: opts.runAs.gid } : {}),
    });
    const kill = () => {
      try {
        if (child.pid) process.kill(-child.pid, 'SIGKILL');
      } catch {
        /* gone */
      }
    };
    if (opts.onSpawn) openGate(child, opts.onSpawn, (m) => opts.onLine('stderr', m));
    const timer = setTimeout(kill, opts.timeoutMs);
    opts.signal?.addEventListener('abort', kill, { once: true });
    lines(child.stdout!, (l) => opts.onLine('stdout', l));
    lines(child.stderr!, (l) => opts.onLine('stderr', l));
    child.on('error', (err) => {
      opts.onLine('stderr', err.message);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve(code ?? 1);
    });
  });
}
