import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Job } from '@mailroom/contract/jobs';
import { UpdatesAnswer } from '@mailroom/contract/system-admin';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestContext } from '../harness.ts';
import { skipLoudly } from '../skip-loudly.ts';

/**
 * Updates against a local apt repository this test builds (dpkg-deb + apt-ftparchive): apt reads
 * only the temporary source list and lists folder (MAILROOM_APT_OPTIONS), never the network. The
 * throwaway package ships one file under /opt/mailroom-test and is purged afterwards.
 */
const PKG = 'mailroom-test-pkg';
const FTPARCHIVE = ['/usr/bin/apt-ftparchive'].find((p) => existsSync(p));
const DPKG_DEB = ['/usr/bin/dpkg-deb'].find((p) => existsSync(p));
const missing = [
  !FTPARCHIVE ? 'apt-ftparchive (Debian package apt-utils)' : '',
  !DPKG_DEB ? 'dpkg-deb (Debian package dpkg)' : '',
]
  .filter(Boolean)
  .join(' and ');
if (missing) {
  const msg = `${missing} missing: the updates tests are SKIPPED`;
  skipLoudly(msg);
}

function buildDeb(dir: string, version: string): string {
  const root = path.join(dir, `build-${version}`);
  mkdirSync(path.join(root, 'DEBIAN'), { recursive: true });
  mkdirSync(path.join(root, 'opt', 'mailroom-test'), { recursive: true });
  writeFileSync(path.join(root, 'opt', 'mailroom-test', 'version'), `${version}\n`);
  writeFileSync(
    path.join(root, 'DEBIAN', 'control'),
    [
      `Package: ${PKG}`,
      `Version: ${version}`,
      'Architecture: all',
      'Maintainer: Mailroom tests <tests@example.com>',
      'Priority: optional',
      'Section: misc',
      'Description: Mailroom updates test package',
      ' Ships one file under /opt/mailroom-test; installed and purged by the tests.',
      '',
    ].join('\n'),
  );
  const deb = path.join(dir, `${PKG}_${version}_all.deb`);
  execFileSync('dpkg-deb', ['--root-owner-group', '--build', root, deb], { stdio: 'pipe' });
  rmSync(root, { recursive: true });
  return deb;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe.skipIf(!!missing)('updates from a local apt repository', () => {
  let t: TestContext;
  let tmp: string;
  let installedBefore = false;

  beforeAll(async () => {
    installedBefore = existsSync('/opt/mailroom-test/version');
    tmp = mkdtempSync(path.join(os.tmpdir(), 'mailroom-apt-'));
    const repo = path.join(tmp, 'repo');
    mkdirSync(repo);
    const v1 = buildDeb(tmp, '1.0');
    buildDeb(repo, '1.1');
    execFileSync('sh', ['-c', `cd ${repo} && apt-ftparchive packages . > Packages`]);
    execFileSync('sh', [
      '-c',
      `cd ${repo} && apt-ftparchive -o APT::FTPArchive::Release::Origin=Mailroom -o APT::FTPArchive::Release::Suite=mailroom-security -o APT::FTPArchive::Release::Label=Mailroom-Security release . > Release`,
    ]);
    writeFileSync(path.join(tmp, 'sources.list'), `deb [trusted=yes] file:${repo} ./\n`);
    for (const d of ['sources.d', 'lists/partial', 'cache/archives/partial'])
      mkdirSync(path.join(tmp, d), { recursive: true });
    // The installed version: 1.0 (the repository offers 1.1).
    execFileSync('dpkg', ['-i', v1], { stdio: 'pipe' });
    process.env.MAILROOM_APT_OPTIONS = [
      `-o Dir::Etc::sourcelist=${tmp}/sources.list`,
      `-o Dir::Etc::sourceparts=${tmp}/sources.d`,
      `-o Dir::State::Lists=${tmp}/lists`,
      `-o Dir::Cache=${tmp}/cache`,
    ].join(' ');
    t = await startTestApp('sqlite', { jobs: { heartbeatMs: 50, persistMs: 20, pollMs: 50, staleMs: 5000 } });
  }, 120_000);

  afterAll(async () => {
    await t?.close();
    delete process.env.MAILROOM_APT_OPTIONS;
    if (!installedBefore) execFileSync('dpkg', ['--purge', PKG], { stdio: 'pipe' });
    rmSync('/opt/mailroom-test', { recursive: true, force: true });
    rmSync(tmp, { recursive: true, force: true });
  });

  async function waitJob(id: number): Promise<Job> {
    for (let i = 0; i < 1200; i++) {
      const job = (await t.call({ url: `/api/jobs/${id}` })).json<Job>();
      if (!['queued', 'running'].includes(job.state)) return job;
      await sleep(50);
    }
    throw new Error(`job ${id} did not finish`);
  }
  /** The updates once the server's reading is current (it is read again in the background). */
  const updates = async () => {
    for (let i = 0; i < 1200; i++) {
      const u = UpdatesAnswer.parse((await t.call({ url: '/api/updates' })).json());
      if (!u.refreshing) return u;
      await sleep(50);
    }
    throw new Error('the updates reading was never current');
  };

  it('checks, lists with versions, priority and size, installs as a job, then uninstalls', async () => {
    // Before Check Updates apt knows no newer version.
    let u = await updates();
    expect(u.updates.filter((x) => x.package === PKG)).toEqual([]);
    expect(u.checkedAt).toBeNull();

    let res = await t.call({ method: 'POST', url: '/api/updates/check' });
    expect(res.statusCode).toBe(202);
    let job = await waitJob(res.json<{ jobId: number }>().jobId);
    expect(job.state, job.message ?? '').toBe('succeeded');

    u = await updates();
    expect(u.checkedAt).not.toBeNull();
    const row = u.updates.find((x) => x.package === PKG)!;
    expect(row).toMatchObject({
      currentVersion: '1.0',
      availableVersion: '1.1',
      priority: 'security',
      source: 'mailroom-security',
      installed: false,
      description: 'Mailroom updates test package',
    });
    expect(row.size).toMatch(/^\d+(\.\d)? (B|KB)$/);

    // Unknown and malformed packages are refused.
    res = await t.call({ method: 'POST', url: '/api/updates/install', payload: { packages: ['Bad Name'] } });
    expect(res.statusCode).toBe(400);

    res = await t.call({ method: 'POST', url: '/api/updates/install', payload: { packages: [PKG] } });
    expect(res.statusCode).toBe(202);
    job = await waitJob(res.json<{ jobId: number }>().jobId);
    expect(job.state, job.message ?? '').toBe('succeeded');
    expect(readFileSync('/opt/mailroom-test/version', 'utf8')).toBe('1.1\n');
    const result = job.result as { installed: { package: string; to: string }[]; output: string[] };
    expect(result.installed).toEqual([expect.objectContaining({ package: PKG, from: '1.0', to: '1.1' })]);
    expect(result.output.join('\n')).toMatch(/Unpacking mailroom-test-pkg/);

    // Now listed as installed, with its date; removing it makes sense (optional, nothing else goes).
    u = await updates();
    const done = u.updates.find((x) => x.package === PKG)!;
    expect(done).toMatchObject({ installed: true, currentVersion: '1.1', removable: true });
    expect(done.installDate).toBeTypeOf('string');

    // An essential package is refused at once.
    res = await t.call({ method: 'POST', url: '/api/updates/remove', payload: { package: 'dpkg' } });
    expect(res.statusCode).toBe(409);
    expect(res.json<{ message: string }>().message).toMatch(/essential/);

    res = await t.call({ method: 'POST', url: '/api/updates/remove', payload: { package: PKG } });
    expect(res.statusCode).toBe(202);
    job = await waitJob(res.json<{ jobId: number }>().jobId);
    expect(job.state, job.message ?? '').toBe('succeeded');
    expect(existsSync('/opt/mailroom-test/version')).toBe(false);
    u = await updates();
    expect(u.updates.filter((x) => x.package === PKG)).toEqual([]);
    // Four jobs, each followed by the server's own reading of apt again (seconds on a busy machine).
  }, 120_000);
});
