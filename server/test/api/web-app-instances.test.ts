import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialects, startTestApp, type TestContext } from '../harness.ts';

describe.each(dialects())('web application instances and limits API on %s', (dialect) => {
  let t: TestContext;
  const call = (method: 'GET' | 'POST', url: string, payload?: object) =>
    t.call({
      method,
      url: `/api/${url}`,
      ...(payload ? { payload } : method === 'POST' ? { payload: {} } : {}),
    });
  const base = (name: string, extra: object = {}) => ({
    name,
    domain: `${name}.example.com`,
    version: '1.0.0',
    deploymentPath: `/var/www/apps/${name}`,
    repository: '/srv/git/none.git',
    startCommand: 'node server.js',
    ...extra,
  });

  beforeAll(async () => {
    t = await startTestApp(dialect);
  });
  afterAll(async () => t.close());

  it('Enable Load Balancing and Enable Scaling are accepted now (no longer "not supported yet"), audited', async () => {
    const caps = (await call('GET', 'web/capabilities/applications')).json();
    expect(caps.fields.enableLoadBalancing).toBeUndefined();
    expect(caps.fields.enableScaling).toBeUndefined();
    const res = await call(
      'POST',
      'web/applications/add',
      base('farm', { enableLoadBalancing: true, enableScaling: true, minInstances: 2, maxInstances: 4 }),
    );
    expect(res.statusCode, res.body).toBe(200);
    const a = res.json().application;
    expect(a).toMatchObject({
      enableLoadBalancing: true,
      enableScaling: true,
      minInstances: 2,
      maxInstances: 4,
    });
    // Nothing deployed: no instance runs, and the host answers 503 (no balancer rendered yet).
    expect(a.instances).toEqual([]);
    const conf = readFileSync(
      t.deps.host.path('/etc/apache2/sites-available/mailroom-farm.example.com.conf'),
      'utf8',
    );
    expect(conf).toContain('R=503');
    expect(conf).not.toContain('balancer://');
    const row = await t.deps.database.db
      .selectFrom('web_apps')
      .select(['instance_ports'])
      .where('name', '=', 'farm')
      .executeTakeFirstOrThrow();
    expect(row.instance_ports).toBe('[]');
    const audit = (await call('GET', 'audit?limit=5')).json();
    expect(audit.entries[0]).toMatchObject({ action: 'web.app.create', target: 'farm' });
  });

  it('Max Instances below Min Instances is a 400 naming maxInstances, and nothing is saved', async () => {
    const res = await call('POST', 'web/applications/add', base('bad', { minInstances: 3, maxInstances: 2 }));
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().details[0]).toEqual({
      field: 'maxInstances',
      message: 'Max Instances must be at least Min Instances',
    });
    expect((await call('GET', 'web/applications/bad')).statusCode).toBe(404);
    const upd = await call(
      'POST',
      'web/applications/update/farm',
      base('farm', { enableLoadBalancing: true, minInstances: 5, maxInstances: 4 }),
    );
    expect(upd.statusCode).toBe(400);
    expect((await call('GET', 'web/applications/farm')).json().minInstances).toBe(2);
  });

  it('the limit state says plainly whether Memory Limit / CPU Limit are enforced, and why not', async () => {
    const a = (await call('GET', 'web/applications/farm')).json();
    if (a.resourceLimits.enforced) {
      expect(a.resourceLimits.mechanism).toMatch(/^(cgroup v1|cgroup v2|systemd unit)$/);
      expect(a.resourceLimits.detail).toContain('memory 512 MiB, CPU 50% of one CPU (');
    } else expect(a.resourceLimits.detail).toMatch(/^limit not enforced: .+/);
    const stat = await call(
      'POST',
      'web/applications/add',
      base('files', { type: 'Static', startCommand: '' }),
    );
    expect(stat.statusCode, stat.body).toBe(200);
    expect(stat.json().application.resourceLimits.detail).toBe(
      'limit not enforced: Static runs no process of its own',
    );
    // The list carries the same (paged on the server).
    const list = (await call('GET', 'web/applications?q=farm')).json();
    expect(list[0].instances).toEqual([]);
    expect(list[0].resourceLimits).toEqual(a.resourceLimits);
  });
});
