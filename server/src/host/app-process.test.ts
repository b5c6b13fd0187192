import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { AppProcess, appPidFile, reapOrphanedApps } from './app-process.ts';

const running = (pid: number) => existsSync(`/proc/${pid}`) && !/^\S+ \S+ Z/.test(stat(pid));
const stat = (pid: number) => {
  try {
    return readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/\(.*\)/, 'x');
  } catch {
    return '';
  }
};

/** A process of its own group sleeping in `cwd`, as an app release runs (not a child we wait for). */
function sleeper(cwd: string): number {
  const child = spawn('sleep', ['60'], { cwd, detached: true, stdio: 'ignore' });
  child.unref();
  return child.pid!;
}

describe('app processes left behind by a killed Mailroom', () => {
  const dirs: string[] = [];
  const pids: number[] = [];
  afterEach(() => {
    for (const pid of pids.splice(0))
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        /* gone */
      }
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });
  const tmp = () => {
    const d = mkdtempSync(path.join(os.tmpdir(), 'mailroom-app-proc-'));
    dirs.push(d);
    return d;
  };

  it('stops the process a pid file names when it runs in a release of that folder, and only that one', async () => {
    const releases = tmp();
    mkdirSync(path.join(releases, '3'));
    const orphan = sleeper(path.join(releases, '3'));
    // A pid file naming a process elsewhere (the pid was reused): never signalled.
    const elsewhere = sleeper(tmp());
    pids.push(orphan, elsewhere);
    writeFileSync(appPidFile(releases, 3001), `${orphan}\n`);
    writeFileSync(appPidFile(releases, 3002), `${elsewhere}\n`);
    writeFileSync(path.join(releases, 'notes.pid'), `${elsewhere}\n`);

    expect(await reapOrphanedApps(releases, 2000)).toBe(1);
    await expect.poll(() => running(orphan), { timeout: 3000 }).toBe(false);
    expect(running(elsewhere)).toBe(true);
    expect(existsSync(appPidFile(releases, 3001))).toBe(false);
    expect(existsSync(appPidFile(releases, 3002))).toBe(false);
    expect(existsSync(path.join(releases, 'notes.pid'))).toBe(true);
  });

  it('keeps the pid file while the process runs and removes it when stopped', async () => {
    const releases = tmp();
    const cwd = path.join(releases, '1');
    mkdirSync(cwd);
    const pidFile = appPidFile(releases, 3100);
    const proc = new AppProcess({
      argv: ['sleep', '60'],
      cwd,
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin' },
      runAs: null,
      logFile: path.join(releases, 'app.log'),
      pidFile,
    });
    await proc.start();
    await expect.poll(() => existsSync(pidFile)).toBe(true);
    expect(Number(readFileSync(pidFile, 'utf8'))).toBe(proc.pid);
    await proc.stop(2000);
    expect(existsSync(pidFile)).toBe(false);
  });
});

describe('the start gate of a confined app process', () => {
  it('the command runs only once onSpawn (the move into its cgroup) finished, with the same pid, on every restart', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'mailroom-app-gate-'));
    const marker = path.join(dir, 'ran');
    const seen: { pid: number; ranBefore: boolean }[] = [];
    const proc = new AppProcess({
      // Writes its own pid (as `sh` sees it after the exec) and exits: the supervisor restarts it.
      argv: ['/bin/sh', '-c', `echo $$ >> ${marker}; exit 3`],
      cwd: dir,
      env: { PATH: '/usr/bin:/bin' },
      runAs: null,
      logFile: path.join(dir, 'app.log'),
      onSpawn: async (pid) => {
        await new Promise((r) => setTimeout(r, 300));
        const ran = existsSync(marker) && readFileSync(marker, 'utf8').split('\n').includes(String(pid));
        seen.push({ pid, ranBefore: ran });
      },
    });
    try {
      await proc.start();
      for (let i = 0; i < 60 && seen.length < 2; i++) await new Promise((r) => setTimeout(r, 100));
      await new Promise((r) => setTimeout(r, 200));
    } finally {
      await proc.stop(1000);
    }
    expect(seen.length).toBeGreaterThanOrEqual(2);
    expect(seen.every((s) => !s.ranBefore)).toBe(true);
    const ran = readFileSync(marker, 'utf8').trim().split('\n').map(Number);
    expect(ran.slice(0, 2)).toEqual(seen.slice(0, 2).map((s) => s.pid));
    rmSync(dir, { recursive: true, force: true });
  }, 15_000);
});
