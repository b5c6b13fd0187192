import { promises as fs } from 'node:fs';
import { exec, isRoot } from './app-process-internals.ts';

/** A Unix user and group to run as (null: Mailroom's own user). */
export type RunAs = { uid: number; gid: number; user: string } | null;

/** The base environment of every app process and build (nothing of Mailroom's own leaks in). */
export const APP_BASE_ENV = { PATH: '/usr/local/bin:/usr/bin:/bin', LANG: 'C.UTF-8' };

async function idsOf(user: string): Promise<{ uid: number; gid: number } | null> {
  const passwd = await fs.readFile('/etc/passwd', 'utf8').catch(() => '');
  const f = passwd
    .split('\n')
    .find((l) => l.startsWith(`${user}:`))
    ?.split(':');
  return f ? { uid: Number(f[2]), gid: Number(f[3]) } : null;
}

/**
 * The app's own system user `mr-app-<name>` (made with useradd when missing). Not root: null and
 * the reason (the app then runs as Mailroom's user).
 */
export async function ensureAppUser(name: string): Promise<{ runAs: RunAs; reason: string }> {
  const user = `mr-app-${name}`;
  if (!isRoot()) return { runAs: null, reason: 'Mailroom is not running as root: the app runs as its user' };
  let ids = await idsOf(user);
  if (!ids) {
    const r = await exec('useradd', [
      '--system',
      '--no-create-home',
      '--home-dir',
      '/nonexistent',
      '--shell',
      '/usr/sbin/nologin',
      '--',
      user,
    ]);
    ids = await idsOf(user);
    if (!ids) return { runAs: null, reason: `useradd ${user} failed: ${r.out}` };
  }
  return { runAs: { ...ids, user }, reason: '' };
}

export async function removeAppUser(name: string): Promise<void> {
  if (!isRoot()) return;
  const user = `mr-app-${name}`;
  if (await idsOf(user)) await exec('userdel', ['--', user]);
}
