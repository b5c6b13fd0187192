import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Job } from '@mailroom/contract/jobs';
import type { BackupStatusAnswer } from '@mailroom/contract/system-admin';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { siteScheduleTick } from '../../src/features/system/backups/backup-scheduler.job.ts';
import type { TestContext } from '../harness.ts';
import { phpStackHere, request, startWithLocalApache } from './web-apache-helpers.ts';

const here = phpStackHere("the removal of a deleted site's Unix user");

/** The user's passwd entry, or null when there is none. */
const passwd = (user: string): string | null => {
  try {
    return execFileSync('getent', ['passwd', user], { encoding: 'utf8' }).trim();
  } catch {
    return null;
  }
};
const group = (name: string): string | null => {
  try {
    return execFileSync('getent', ['group', name], { encoding: 'utf8' }).trim();
  } catch {
    return null;
  }
};
const owner = (p: string) => execFileSync('stat', ['-c', '%U:%G', p], { encoding: 'utf8' }).trim();

describe.skipIf(!here)(
  'site users: a site backup restored with owners; a deleted site’s user goes with it',
  () => {
    let t: TestContext;
    let httpPort: number;
    const call = (method: 'GET' | 'POST', url: string, payload?: object) =>
      t.call({ method, url: `/api/${url}`, ...(payload ? { payload } : {}) });

    beforeAll(async () => {
      ({ t, httpPort } = await startWithLocalApache(30_000));
    }, 90_000);
    afterAll(async () => {
      await t?.close();
    });

    const add = async (domain: string) => {
      const res = await call('POST', 'web/vhosts/add', {
        domain,
        serverName: domain,
        documentRoot: `/var/www/${domain}`,
        enablePhp: true,
        phpVersion: '8.2',
      });
      expect(res.statusCode, res.body).toBe(200);
      return res.json<{ vhost: { id: number; siteUser: string } }>().vhost;
    };

    it('a site-scoped backup is restored through the same restore: the files come back with their owners', async () => {
      const res0 = await call('POST', 'web/vhosts/add', {
        domain: 'restored.example.com',
        serverName: 'restored.example.com',
        documentRoot: '/var/www/restored.example.com',
        enablePhp: true,
        phpVersion: '8.2',
        enableBackup: true,
        backupFrequency: 'daily',
        backupRetention: 2,
      });
      expect(res0.statusCode, res0.body).toBe(200);
      const user = res0.json<{ vhost: { siteUser: string } }>().vhost.siteUser;
      const settings = await t.call({
        method: 'PUT',
        url: '/api/system/settings/values',
        payload: { values: { backupHour: '0', timezone: 'UTC' } },
      });
      expect(settings.statusCode, settings.body).toBe(200);
      const doc = t.deps.host.path('/var/www/restored.example.com');
      mkdirSync(path.join(doc, 'sub'));
      writeFileSync(path.join(doc, 'sub', 'page.html'), 'page\n');
      execFileSync('chown', ['-R', `${user}:www-data`, path.join(doc, 'sub')]);
      execFileSync('chmod', ['640', path.join(doc, 'sub', 'page.html')]);
      const env = {
        database: t.deps.database,
        locks: t.deps.locks!,
        dataDir: t.dataDir,
        backupDir: path.join(t.dataDir, 'backups'),
        host: t.deps.host,
      };
      const [id] = await siteScheduleTick(env, t.deps.jobs!, new Date('2025-06-02T12:00:00Z'));
      expect(id).toBeTypeOf('number');
      const waitJob = async (jobId: number) => {
        for (let i = 0; i < 1200; i++) {
          const job = (await t.call({ url: `/api/jobs/${jobId}` })).json<Job>();
          if (!['queued', 'running'].includes(job.state)) return job;
          await new Promise((r) => setTimeout(r, 100));
        }
        throw new Error(`job ${jobId} did not finish`);
      };
      for (let i = 0; i < 600; i++) {
        const s = (await t.call({ url: '/api/backup/status' })).json<BackupStatusAnswer>();
        const b = s.backups.find((x) => x.id === id)!;
        if (b.status !== 'active') {
          expect(b.status, b.message ?? '').toBe('completed');
          expect(b.scope).toBe('site restored.example.com');
          break;
        }
        await new Promise((r) => setTimeout(r, 100));
      }
      // Lost: the folder with its page goes, the index is defaced and given to root.
      rmSync(path.join(doc, 'sub'), { recursive: true });
      writeFileSync(path.join(doc, 'index.html'), 'defaced\n');
      execFileSync('chown', ['root:root', path.join(doc, 'index.html')]);
      const res = await t.call({ method: 'POST', url: `/api/backups/${id}/restore` });
      expect(res.statusCode, res.body).toBe(202);
      const job = await waitJob(res.json<{ jobId: number }>().jobId);
      expect(job.state, job.message ?? '').toBe('succeeded');
      expect(readFileSync(path.join(doc, 'sub', 'page.html'), 'utf8')).toBe('page\n');
      expect(owner(path.join(doc, 'sub'))).toBe(`${user}:www-data`);
      expect(owner(path.join(doc, 'sub', 'page.html'))).toBe(`${user}:www-data`);
      expect(statSync(path.join(doc, 'sub', 'page.html')).mode & 0o777).toBe(0o640);
      expect(readFileSync(path.join(doc, 'index.html'), 'utf8')).not.toBe('defaced\n');
      expect(owner(path.join(doc, 'index.html'))).toBe(`${user}:www-data`);
      // Served again as it was.
      const page = await request(httpPort, 'restored.example.com', { path: '/sub/page.html' });
      expect(page.status, page.body).toBe(200);
    }, 120_000);

    it('keep files: the files go to root first, then the user, its group and its pool are removed', async () => {
      const site = await add('kept-user.example.com');
      const user = site.siteUser;
      expect(user).toBe(`mr-site-${site.id}`);
      expect(passwd(user)).not.toBeNull();
      const doc = t.deps.host.path('/var/www/kept-user.example.com');
      const pool = t.deps.host.path('/etc/php/8.2/fpm/pool.d/mailroom-kept-user.example.com.conf');
      expect(existsSync(pool)).toBe(true);
      // A PHP page writes a file as the site's user (a worker of its pool runs as that user), and a
      // file of the site's own group is there too.
      writeFileSync(
        path.join(doc, 'write.php'),
        `<?php file_put_contents(__DIR__ . '/written.txt', 'by php'); echo posix_getpwuid(posix_geteuid())['name'];`,
      );
      let r = await request(httpPort, 'kept-user.example.com', { path: '/write.php' });
      const until = Date.now() + 15_000;
      while (r.status !== 200 && Date.now() < until) {
        await new Promise((res) => setTimeout(res, 200));
        r = await request(httpPort, 'kept-user.example.com', { path: '/write.php' });
      }
      expect(r.status, r.body).toBe(200);
      expect(r.body).toBe(user);
      expect(owner(path.join(doc, 'written.txt'))).toBe(`${user}:www-data`);
      writeFileSync(path.join(doc, 'own-group.txt'), 'x');
      execFileSync('chown', [`${user}:${user}`, path.join(doc, 'own-group.txt')]);
      expect(owner(doc)).toBe(`${user}:www-data`);

      const res = await call('POST', 'web/vhosts/remove/kept-user.example.com', { keepFiles: true });
      expect(res.statusCode, res.body).toBe(200);
      const out = res.json<{ filesRemoved: boolean; siteUser: string }>();
      expect(out.filesRemoved).toBe(false);
      expect(out.siteUser).toContain('removed');
      // The user and its own group are gone; its pool went with the site.
      expect(passwd(user)).toBeNull();
      expect(group(user)).toBeNull();
      expect(existsSync(pool)).toBe(false);
      // The kept files: root's now (Apache's group stays where it was; the site's own group is root's).
      expect(owner(doc)).toBe('root:www-data');
      expect(statSync(doc).mode & 0o7777).toBe(0o2750);
      expect(owner(path.join(doc, 'index.html'))).toBe('root:www-data');
      expect(owner(path.join(doc, 'written.txt'))).toBe('root:www-data');
      expect(owner(path.join(doc, 'own-group.txt'))).toBe('root:root');
      // No file under the kept folder is owned by a uid without a name.
      expect(execFileSync('find', [doc, '-nouser', '-o', '-nogroup'], { encoding: 'utf8' }).trim()).toBe('');
    }, 90_000);

    it('files removed: the user and its group are removed as well', async () => {
      const site = await add('gone-user.example.com');
      expect(passwd(site.siteUser)).not.toBeNull();
      const res = await call('POST', 'web/vhosts/remove/gone-user.example.com', { keepFiles: false });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json<{ filesRemoved: boolean }>().filesRemoved).toBe(true);
      expect(existsSync(t.deps.host.path('/var/www/gone-user.example.com'))).toBe(false);
      expect(passwd(site.siteUser)).toBeNull();
      expect(group(site.siteUser)).toBeNull();
    }, 90_000);
  },
);
