import { promises as fs } from 'node:fs';
import path from 'node:path';

const PID_FILE = /^\.app-\d+\.pid$/;
export const appPidFile = (releasesDir: string, port: number) => path.join(releasesDir, `.app-${port}.pid`);

const alive = (pid: number) =>
  fs.stat(`/proc/${pid}`).then(
    () => true,
    () => false,
  );

/**
 * The pid of the app process on `port` from its pid file in `releasesDir`, when it runs (any
 * Mailroom worker can read it, not only the one that started it); null otherwise.
 */
export async function runningAppPid(releasesDir: string, port: number): Promise<number | null> {
  const pid = Number((await fs.readFile(appPidFile(releasesDir, port), 'utf8').catch(() => '')).trim());
  return Number.isInteger(pid) && pid > 1 && (await alive(pid)) ? pid : null;
}

/**
 * Stops the app processes a previous Mailroom left running in `releasesDir` (it was killed, or
 * crashed, so it never stopped them): each pid file's process group, when that process still runs
 * in a folder under `releasesDir` (a reused pid elsewhere is left alone). Answers how many.
 */
export async function reapOrphanedApps(releasesDir: string, waitMs = 5000): Promise<number> {
  const names = await fs.readdir(releasesDir).catch(() => [] as string[]);
  const root = await fs.realpath(releasesDir).catch(() => releasesDir);
  let reaped = 0;
  for (const name of names.filter((n) => PID_FILE.test(n))) {
    const file = path.join(releasesDir, name);
    const pid = Number((await fs.readFile(file, 'utf8').catch(() => '')).trim());
    const cwd = pid > 1 ? await fs.readlink(`/proc/${pid}/cwd`).catch(() => null) : null;
    if (cwd && (cwd === root || cwd.startsWith(`${root}/`))) {
      const signal = (sig: NodeJS.Signals) => {
        try {
          process.kill(-pid, sig);
        } catch {
          /* gone */
        }
      };
      signal('SIGTERM');
      const until = Date.now() + waitMs;
      while ((await alive(pid)) && Date.now() < until) await new Promise((r) => setTimeout(r, 100));
      if (await alive(pid)) signal('SIGKILL');
      reaped++;
    }
    await fs.rm(file, { force: true });
  }
  return reaped;
}
