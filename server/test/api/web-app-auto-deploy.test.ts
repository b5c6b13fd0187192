import { execFileSync } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Job } from '@mailroom/contract/jobs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialects, startTestApp, type TestContext } from '../harness.ts';

/**
 * Auto deploy (issue 20): the signed webhook and the check of the remote, on a local git repository.
 * A Static application: the deploy job is the real one (clone, switch of the virtual host), with no
 * process to run, so the API tier proves the whole path from a push to a live release.
 */
describe.each(dialects())('web application auto deploy on %s', (dialect) => {
  let t: TestContext;
  let repo: string;
  let hasCommits = false;
  const git = (...args: string[]) =>
    execFileSync('git', ['-C', repo, '-c', 'user.email=t@example.com', '-c', 'user.name=t', ...args], {
      encoding: 'utf8',
    });
  const commit = (body: string, branch = 'main') => {
    // The first commit makes the branch: nothing to check out yet.
    if (hasCommits) git('checkout', '-q', branch);
    hasCommits = true;
    writeFileSync(path.join(repo, 'index.html'), body);
    git('add', '-A');
    git('commit', '-q', '-m', body);
    return git('rev-parse', 'HEAD').trim();
  };
  const call = (method: 'GET' | 'POST', url: string, payload?: object) =>
    t.call({
      method,
      url: `/api/${url}`,
      ...(payload ? { payload } : method === 'POST' ? { payload: {} } : {}),
    });
  const sign = (secret: string, raw: string) =>
    `sha256=${createHmac('sha256', secret).update(raw).digest('hex')}`;
  let delivery = 0;
  const hook = (
    name: string,
    opts: { secret: string; ref?: string; event?: string; id?: string | null; sig?: string; ip?: string },
  ) => {
    const raw = JSON.stringify({ ref: opts.ref ?? 'refs/heads/main', after: '0'.repeat(40) });
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      'x-github-event': opts.event ?? 'push',
      'x-hub-signature-256': opts.sig ?? sign(opts.secret, raw),
    };
    if (opts.id !== null) headers['x-github-delivery'] = opts.id ?? `d-${++delivery}`;
    // No session: the webhook is public on purpose.
    return t.app.inject({
      method: 'POST',
      url: `/api/web/hooks/applications/${name}`,
      headers,
      payload: raw,
      remoteAddress: opts.ip ?? '192.0.2.10',
    });
  };
  const waitJob = async (id: number): Promise<Job> => {
    for (let i = 0; i < 600; i++) {
      const j = (await call('GET', `jobs/${id}`)).json<Job>();
      if (j.state !== 'running' && j.state !== 'queued') return j;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error('job did not end');
  };
  const jobsOf = async () =>
    (await t.deps.database.db.selectFrom('jobs').select(['id', 'kind']).execute()).filter(
      (j) => j.kind === 'web.app.deploy',
    ).length;
  const auditOf = async (action: string) =>
    t.deps.database.db
      .selectFrom('audit_log')
      .select(['actor', 'target', 'outcome', 'details', 'ip'])
      .where('action', '=', action)
      .orderBy('id')
      .execute();

  const siteBody = () => ({
    name: 'site',
    domain: 'site.example.com',
    version: '1',
    type: 'Static',
    deploymentPath: '/var/www/apps/site',
    repository: repo,
    enableAutoDeploy: true,
  });

  beforeAll(async () => {
    repo = mkdtempSync(path.join(os.tmpdir(), 'mailroom-autodeploy-'));
    execFileSync('git', ['init', '-q', '-b', 'main', repo]);
    commit('one\n');
    git('branch', 'dev');
    t = await startTestApp(dialect);
  });
  afterAll(async () => {
    await t.close();
    rmSync(repo, { recursive: true, force: true });
  });

  it('Enable Auto Deploy needs a repository (400 naming it); the capabilities no longer refuse it', async () => {
    const caps = (await call('GET', 'web/capabilities/applications')).json();
    expect(caps.fields.enableAutoDeploy).toBeUndefined();
    const res = await call('POST', 'web/applications/add', {
      name: 'norepo',
      domain: 'norepo.example.com',
      version: '1',
      type: 'Static',
      deploymentPath: '/var/www/apps/norepo',
      enableAutoDeploy: true,
    });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().details[0]).toEqual({
      field: 'repository',
      message: 'Repository is required to deploy',
    });
  });

  it('a secret is shown once and stored sealed; a push to the branch deploys it; wrong signature, replay, other branch and unknown app do nothing', async () => {
    const created = await call('POST', 'web/applications/add', siteBody());
    expect(created.statusCode, created.body).toBe(200);
    let info = (await call('GET', 'web/applications/site/auto-deploy')).json();
    expect(info).toMatchObject({
      enabled: true,
      branch: 'main',
      webhookPath: '/api/web/hooks/applications/site',
      secretSet: false,
      pollSeconds: 60,
    });
    // No secret yet: every delivery is a 401.
    expect((await hook('site', { secret: 'x' })).statusCode).toBe(401);

    const made = await call('POST', 'web/applications/webhook-secret/site');
    expect(made.statusCode, made.body).toBe(200);
    const secret = made.json().secret as string;
    expect(secret).toMatch(/^[0-9a-f]{64}$/);
    info = (await call('GET', 'web/applications/site/auto-deploy')).json();
    expect(info.secretSet).toBe(true);
    expect(JSON.stringify(info)).not.toContain(secret);
    const stored = await t.deps.database.db.selectFrom('web_app_hooks').selectAll().executeTakeFirstOrThrow();
    expect(stored.secret_sealed).toMatch(/^v1:/);
    expect(stored.secret_sealed).not.toContain(secret);
    const rotateAudit = await auditOf('web.app.webhook.rotate');
    expect(rotateAudit).toHaveLength(1);
    expect(JSON.stringify(rotateAudit)).not.toContain(secret);

    // Wrong signature: 401, nothing started, audited as a failure.
    const before = await jobsOf();
    let res = await hook('site', { secret: 'not-the-secret' });
    expect(res.statusCode).toBe(401);
    expect(res.json().message).toBe('The X-Hub-Signature-256 signature is missing or wrong');
    res = await hook('site', { secret, sig: 'sha256=' + 'ab'.repeat(32) });
    expect(res.statusCode).toBe(401);
    // An unknown application answers the same 401 (the URL tells nothing).
    expect((await hook('ghost', { secret })).statusCode).toBe(401);
    expect(await jobsOf()).toBe(before);
    const refused = await auditOf('web.app.webhook');
    expect(refused.map((a) => [a.actor, a.outcome, a.ip])).toEqual([
      ['webhook', 'failure', '192.0.2.10'],
      ['webhook', 'failure', '192.0.2.10'],
      ['webhook', 'failure', '192.0.2.10'],
      ['webhook', 'failure', '192.0.2.10'],
    ]);

    // A delivery id is required.
    expect((await hook('site', { secret, id: null })).statusCode).toBe(400);
    // A ping proves the secret.
    res = await hook('site', { secret, event: 'ping' });
    expect(res.statusCode).toBe(200);
    expect(res.json().outcome).toBe('pong');
    // Another branch: ignored with the reason, nothing deployed.
    res = await hook('site', { secret, ref: 'refs/heads/dev' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      outcome: 'ignored',
      reason: 'refs/heads/dev is not the auto-deploy branch refs/heads/main: nothing deployed',
    });
    expect(await jobsOf()).toBe(before);

    // A push to main: the deploy job starts and the release is the branch's head.
    const head = git('rev-parse', 'main').trim();
    res = await hook('site', { secret, id: 'push-1' });
    expect(res.statusCode, res.body).toBe(202);
    expect(res.json()).toMatchObject({ outcome: 'deploying', commit: head });
    const job = await waitJob(res.json().jobId);
    expect(job.state, job.message ?? '').toBe('succeeded');
    const rel = (await call('GET', 'web/applications/site/releases')).json()[0];
    expect(rel).toMatchObject({ state: 'live', commit: head, startedBy: 'auto-deploy (webhook)' });
    // The same delivery again: a replay, refused.
    res = await hook('site', { secret, id: 'push-1' });
    expect(res.statusCode).toBe(409);
    // The same push with a new id: the commit is live already.
    res = await hook('site', { secret });
    expect(res.statusCode).toBe(200);
    expect(res.json().reason).toBe(`${head.slice(0, 12)} is already live: nothing deployed`);
    expect(await jobsOf()).toBe(before + 1);

    // A commit on dev changes nothing; a commit on main is found by the check of the remote.
    commit('dev work\n', 'dev');
    res = await call('POST', 'web/applications/check-remote/site');
    expect(res.statusCode).toBe(200);
    expect(res.json().outcome).toBe('ignored');
    const second = commit('two\n', 'main');
    res = await call('POST', 'web/applications/check-remote/site');
    expect(res.statusCode, res.body).toBe(202);
    expect(res.json().commit).toBe(second);
    expect((await waitJob(res.json().jobId)).state).toBe('succeeded');
    info = (await call('GET', 'web/applications/site/auto-deploy')).json();
    expect(info.lastCommit).toBe(second);
    expect(info.lastResult).toMatch(/^console: Deploying site at /);
    const deployAudit = await auditOf('web.app.deploy');
    expect(deployAudit.map((a) => a.actor)).toEqual(['auto-deploy', 'auto-deploy']);

    // Enable Auto Deploy off: a signed push is ignored with the reason.
    const off = await call('POST', 'web/applications/update/site', {
      ...siteBody(),
      enableAutoDeploy: false,
    });
    expect(off.statusCode, off.body).toBe(200);
    commit('three\n', 'main');
    res = await hook('site', { secret });
    expect(res.json()).toMatchObject({
      outcome: 'ignored',
      reason: 'Enable Auto Deploy is off for site: nothing deployed',
    });
  }, 120_000);

  it('deliveries are rate limited per address (429 past the limit)', async () => {
    let last = 0;
    for (let i = 0; i < 31; i++) last = (await hook('site', { secret: 'x', ip: '198.51.100.7' })).statusCode;
    expect(last).toBe(429);
    // Another address is not affected.
    expect((await hook('site', { secret: 'x', ip: '198.51.100.8' })).statusCode).toBe(401);
  });
});
