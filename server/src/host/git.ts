import { promises as fs } from 'node:fs';
import { runCommand } from './run-command.ts';

/** Git is never given a prompt, a shell transport or a user's configuration. */
const GIT_ENV: NodeJS.ProcessEnv = {
  PATH: process.env.PATH ?? '/usr/local/bin:/usr/bin:/bin',
  HOME: '/nonexistent',
  GIT_TERMINAL_PROMPT: '0',
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_ASKPASS: '/bin/false',
  SSH_ASKPASS: '/bin/false',
  LANG: 'C',
};
const SAFE = [
  '-c',
  'protocol.ext.allow=never',
  '-c',
  'protocol.fd.allow=never',
  '-c',
  'core.hooksPath=/dev/null',
];

/**
 * Fetches `ref` (a branch, tag or commit, already checked against the allowlist) of `repository`
 * into the new, empty folder `dir` (a machine path) and checks it out detached. Argument arrays
 * only, `--` before every caller value. Answers the commit.
 */
export async function fetchRelease(
  repository: string,
  ref: string,
  dir: string,
  opts: { signal?: AbortSignal; onLine?: (line: string) => void } = {},
): Promise<string> {
  if (repository.startsWith('-') || ref.startsWith('-')) throw new Error('refused: option-like value');
  await fs.mkdir(dir, { recursive: true, mode: 0o755 });
  const run = (args: string[]) =>
    runCommand('git', [...SAFE, '-C', dir, ...args], {
      env: GIT_ENV,
      ...(opts.signal ? { signal: opts.signal } : {}),
      ...(opts.onLine ? { onLine: opts.onLine } : {}),
    });
  await run(['init', '--quiet']);
  const isCommit = /^[0-9a-f]{40}$/.test(ref);
  await run(['fetch', '--quiet', '--depth', '1', '--no-tags', '--', repository, isCommit ? ref : ref]);
  await run(['checkout', '--quiet', '--detach', 'FETCH_HEAD']);
  const head = await run(['rev-parse', 'HEAD']);
  return head.stdout.trim();
}

/** How long a read of the remote's branches may take. */
export const LS_REMOTE_TIMEOUT_MS = 30_000;

/**
 * The commit at the head of `branch` (already checked against the allowlist) on `repository`, read
 * with `git ls-remote` (nothing is fetched); null when the remote has no such branch.
 */
export async function remoteBranchHead(repository: string, branch: string): Promise<string | null> {
  if (repository.startsWith('-') || branch.startsWith('-')) throw new Error('refused: option-like value');
  const ref = `refs/heads/${branch}`;
  const out = await runCommand('git', [...SAFE, 'ls-remote', '--heads', '--', repository, ref], {
    env: GIT_ENV,
    signal: AbortSignal.timeout(LS_REMOTE_TIMEOUT_MS),
  });
  for (const line of out.stdout.split('\n')) {
    const [sha, name] = line.trim().split(/\s+/);
    if (name === ref && sha && /^[0-9a-f]{40,64}$/.test(sha)) return sha;
  }
  return null;
}
