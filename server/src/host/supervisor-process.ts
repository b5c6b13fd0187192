import { execFile } from 'node:child_process';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { probe, type ReadinessProbe } from './readiness.ts';
import { processAlive } from './process-signals.ts';

/** The supervisor's dealings with processes and files: pid files, signals, /proc, folders. */

/** Reads a pid file (Postfix pads it with spaces) and returns the pid when that process is alive. */
export async function livePidFromFile(file: string): Promise<number | null> {
  let text: string;
  try {
    text = await fs.readFile(file, 'utf8');
  } catch {
    return null;
  }
  const pid = Number(text.trim());
  if (!Number.isInteger(pid) || pid <= 1) return null;
  return processAlive(pid) ? pid : null;
}

export { processAlive as isAlive };

export function runCommand(
  cmd: string,
  args: string[],
  env?: NodeJS.ProcessEnv,
): Promise<{ ok: boolean; out: string }> {
  return new Promise((resolve) => {
    execFile(cmd, args, { timeout: 30_000, env: env ?? process.env }, (err, stdout, stderr) => {
      const out = `${String(stdout)}${String(stderr)}`.trim() || (err ? err.message : '');
      resolve({ ok: !err, out });
    });
  });
}

export async function makeFolder(f: string | { path: string; owner: string; mode: number }): Promise<void> {
  if (typeof f === 'string') {
    await fs.mkdir(f, { recursive: true });
    return;
  }
  const created = await fs.mkdir(f.path, { recursive: true });
  if (created === undefined) return;
  await fs.chmod(f.path, f.mode);
  const ids = await new Promise<{ uid: number; gid: number } | null>((resolve) =>
    execFile('id', [f.owner], (err, out) => {
      const uid = /uid=(\d+)/.exec(String(out))?.[1];
      const gid = /gid=(\d+)/.exec(String(out))?.[1];
      resolve(err || !uid || !gid ? null : { uid: Number(uid), gid: Number(gid) });
    }),
  );
  if (ids) await fs.chown(f.path, ids.uid, 0).catch(() => undefined);
}

const readText = async (p: string) => {
  try {
    return await fs.readFile(p, 'utf8');
  } catch {
    return '';
  }
};
const readLink = async (p: string) => {
  try {
    return await fs.readlink(p);
  } catch {
    return '';
  }
};

/**
 * Whether `pid` is an instance of `program` on the files under `home`, as /proc shows it: its
 * executable or command line names the program (Postfix's master lives in postfix's folder;
 * PHP-FPM and rspamd rewrite their command line), and its command line, environment
 * (Postfix's MAIL_CONFIG), working folder or an open file (rspamd's log) is under `home`.
 */
export async function runsFrom(pid: number, program: string, home: string): Promise<boolean> {
  const [cmd, exe, env, cwd] = await Promise.all([
    commandLine(pid),
    readLink(`/proc/${pid}/exe`),
    readText(`/proc/${pid}/environ`),
    readLink(`/proc/${pid}/cwd`),
  ]);
  const prog = path.basename(program);
  if (!cmd.includes(prog) && !exe.includes(prog)) return false;
  const root = path.resolve(home);
  const under = (p: string) => p === root || p.startsWith(`${root}/`);
  if (cmd.split(/[\s=()]+/).some(under)) return true;
  if (env.split('\0').some((e) => under(e.slice(e.indexOf('=') + 1)))) return true;
  if (under(cwd)) return true;
  let fds: string[] = [];
  try {
    fds = await fs.readdir(`/proc/${pid}/fd`);
  } catch {
    return false;
  }
  for (const fd of fds) if (under(await readLink(`/proc/${pid}/fd/${fd}`))) return true;
  return false;
}

/** A process's command line ('' when it is gone or /proc is not there). */
export async function commandLine(pid: number): Promise<string> {
  try {
    return (await fs.readFile(`/proc/${pid}/cmdline`, 'utf8')).replace(/\0/g, ' ');
  } catch {
    return '';
  }
}

export function signal(pid: number, sig: NodeJS.Signals): void {
  try {
    process.kill(pid, sig);
  } catch {
    /* already gone */
  }
}

export async function allReady(probes: ReadinessProbe[]): Promise<boolean> {
  for (const p of probes) if (!(await probe(p))) return false;
  return true;
}
