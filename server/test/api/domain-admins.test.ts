import { accountsRoutes } from '@mailroom/contract/accounts';
import type { RouteDef } from '@mailroom/contract/route';
import Fastify from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { installAuthGuard } from '../../src/http/auth-guard.ts';
import { installErrorHandler } from '../../src/http/error-handler.ts';
import { registerRoute } from '../../src/http/register-route.ts';
import { dialects, startTestApp, type TestContext } from '../harness.ts';
import { zoneForm } from '../dns-zone-form.ts';

const DA = { email: 'da@example.com', password: 'domain-admin-password' };
const OWN = 'own.test';
const OTHER = 'other.test';
/**
 * Every route a domain administrator may reach on objects ('domain'), with a call on an object of
 * another domain (must answer 404, or 403 when the domain is given in the body) and one on their
 * own domain (must work). A new 'domain' route without an entry here fails the test.
 */
type Call = { url: string; payload?: object; expect: number };
const DOMAIN_ROUTES: Record<string, { other?: Call; own: Call }> = {
  'GET /api/mail/users': { own: { url: '/api/mail/users', expect: 200 } },
  'POST /api/mail/users/add': {
    other: {
      url: '/api/mail/users/add',
      payload: { email: `new@${OTHER}`, password: 'new-password-1', quota: 0 },
      expect: 403,
    },
    own: {
      url: '/api/mail/users/add',
      payload: { email: `new@${OWN}`, password: 'new-password-1', quota: 0 },
      expect: 200,
    },
  },
  'POST /api/mail/users/bulk': {
    other: {
      url: '/api/mail/users/bulk',
      payload: { action: 'suspend', emails: [`bulk@${OWN}`, `bob@${OTHER}`] },
      expect: 403,
    },
    own: {
      url: '/api/mail/users/bulk',
      payload: { action: 'suspend', emails: [`bulk@${OWN}`] },
      expect: 200,
    },
  },
  'POST /api/mail/users/remove/:email': {
    other: { url: `/api/mail/users/remove/bob@${OTHER}`, expect: 404 },
    own: { url: `/api/mail/users/remove/gone@${OWN}`, expect: 200 },
  },
  'POST /api/mail/users/password/:email': {
    other: {
      url: `/api/mail/users/password/bob@${OTHER}`,
      payload: { password: 'changed-password-1' },
      expect: 404,
    },
    own: {
      url: `/api/mail/users/password/alice@${OWN}`,
      payload: { password: 'changed-password-1' },
      expect: 200,
    },
  },
  'POST /api/mail/users/quota/:email': {
    other: { url: `/api/mail/users/quota/bob@${OTHER}`, payload: { quota: 1048576 }, expect: 404 },
    own: { url: `/api/mail/users/quota/alice@${OWN}`, payload: { quota: 1048576 }, expect: 200 },
  },
  'POST /api/mail/users/suspend/:email': {
    other: { url: `/api/mail/users/suspend/bob@${OTHER}`, expect: 404 },
    own: { url: `/api/mail/users/suspend/alice@${OWN}`, expect: 200 },
  },
  'POST /api/mail/users/resume/:email': {
    other: { url: `/api/mail/users/resume/bob@${OTHER}`, expect: 404 },
    own: { url: `/api/mail/users/resume/alice@${OWN}`, expect: 200 },
  },
  'POST /api/mail/users/purge/:email': {
    other: { url: `/api/mail/users/purge/bob@${OTHER}`, expect: 404 },
    own: { url: `/api/mail/users/purge/gone@${OWN}`, expect: 200 },
  },
  'GET /api/mail/users/:email/app-passwords': {
    other: { url: `/api/mail/users/bob@${OTHER}/app-passwords`, expect: 404 },
    own: { url: `/api/mail/users/alice@${OWN}/app-passwords`, expect: 200 },
  },
  'DELETE /api/mail/users/:email/app-passwords/:id': {
    other: { url: `/api/mail/users/bob@${OTHER}/app-passwords/1`, expect: 404 },
    // Alice has none: the call reaches the service, which finds no such app password (the
    // revocation itself is proved in account-sessions.test.ts).
    own: { url: `/api/mail/users/alice@${OWN}/app-passwords/1`, expect: 404 },
  },
  'GET /api/mail/aliases': { own: { url: '/api/mail/aliases', expect: 200 } },
  'POST /api/mail/aliases/add': {
    other: {
      url: '/api/mail/aliases/add',
      payload: { source: `x@${OTHER}`, destination: `alice@${OWN}` },
      expect: 403,
    },
    own: {
      url: '/api/mail/aliases/add',
      payload: { source: `x@${OWN}`, destination: `alice@${OWN}` },
      expect: 200,
    },
  },
  'POST /api/mail/aliases/remove/:source': {
    other: { url: `/api/mail/aliases/remove/info@${OTHER}`, expect: 404 },
    own: { url: `/api/mail/aliases/remove/x@${OWN}`, expect: 200 },
  },
  'POST /api/mail/aliases/update/:source': {
    other: {
      url: `/api/mail/aliases/update/info@${OTHER}`,
      payload: { destination: `alice@${OWN}` },
      expect: 404,
    },
    own: {
      url: `/api/mail/aliases/update/info@${OWN}`,
      payload: { destination: `alice@${OWN}` },
      expect: 200,
    },
  },
  'GET /api/mail/domains': { own: { url: '/api/mail/domains', expect: 200 } },
  'GET /api/dns/zones': { own: { url: '/api/dns/zones', expect: 200 } },
  'GET /api/dns/zones/:zone': {
    other: { url: `/api/dns/zones/${OTHER}`, expect: 404 },
    own: { url: `/api/dns/zones/${OWN}`, expect: 200 },
  },
  'POST /api/dns/zones/update/:domain': {
    other: { url: `/api/dns/zones/update/${OTHER}`, payload: { refresh: 7200 }, expect: 404 },
    own: { url: `/api/dns/zones/update/${OWN}`, payload: { refresh: 7200 }, expect: 200 },
  },
  'GET /api/dns/zones/:zone/zonefile': {
    other: { url: `/api/dns/zones/${OTHER}/zonefile`, expect: 404 },
    own: { url: `/api/dns/zones/${OWN}/zonefile`, expect: 200 },
  },
  'GET /api/dns/records': { own: { url: '/api/dns/records', expect: 200 } },
  'GET /api/dns/records/:zone': {
    other: { url: `/api/dns/records/${OTHER}`, expect: 404 },
    own: { url: `/api/dns/records/${OWN}`, expect: 200 },
  },
  'POST /api/dns/records/add': {
    other: {
      url: '/api/dns/records/add',
      payload: { zone: OTHER, qname: 'a', rtype: 'A', value: '192.0.2.7', ttl: 300 },
      expect: 403,
    },
    own: {
      url: '/api/dns/records/add',
      payload: { zone: OWN, qname: 'a', rtype: 'A', value: '192.0.2.7', ttl: 300 },
      expect: 200,
    },
  },
  'POST /api/dns/records/remove': {
    other: {
      url: '/api/dns/records/remove',
      payload: { zone: OTHER, qname: 'www', rtype: 'A' },
      expect: 403,
    },
    own: { url: '/api/dns/records/remove', payload: { zone: OWN, qname: 'a', rtype: 'A' }, expect: 200 },
  },
  'POST /api/dns/zones/:zone/records': {
    other: {
      url: `/api/dns/zones/${OTHER}/records`,
      payload: { qname: 'b', rtype: 'A', value: '192.0.2.8' },
      expect: 404,
    },
    own: {
      url: `/api/dns/zones/${OWN}/records`,
      payload: { qname: 'b', rtype: 'A', value: '192.0.2.8' },
      expect: 200,
    },
  },
  'PUT /api/dns/zones/:zone/records/:qname/:rtype': {
    other: {
      url: `/api/dns/zones/${OTHER}/records/www/A`,
      payload: { qname: 'www', rtype: 'A', value: '192.0.2.9', ttl: 300 },
      expect: 404,
    },
    own: {
      url: `/api/dns/zones/${OWN}/records/b/A`,
      payload: { qname: 'b', rtype: 'A', value: '192.0.2.9', ttl: 300 },
      expect: 200,
    },
  },
  'DELETE /api/dns/zones/:zone/records/:qname/:rtype': {
    other: { url: `/api/dns/zones/${OTHER}/records/www/A`, expect: 404 },
    own: { url: `/api/dns/zones/${OWN}/records/b/A`, expect: 200 },
  },
  'GET /api/mail/users/export': { own: { url: '/api/mail/users/export?format=csv', expect: 200 } },
  'GET /api/mail/aliases/export': { own: { url: '/api/mail/aliases/export?format=csv', expect: 200 } },
  'GET /api/dns/records/export': { own: { url: '/api/dns/records/export?format=csv', expect: 200 } },
  'GET /api/search': { own: { url: '/api/search?q=al', expect: 200 } },
};

const isApi = (url: string) => url === '/api' || url.startsWith('/api/');
const concrete = (url: string) => url.replace(/:[A-Za-z0-9_]+/g, 'x').replace(/\*/g, 'x');

describe.each(dialects())('domain administrators on %s', (dialect) => {
  let t: TestContext;
  let daToken = '';
  const asDa = (method: string, url: string, payload?: object) =>
    t.app.inject({
      method: method as 'GET',
      url,
      headers: { authorization: `Bearer ${daToken}` },
      ...(payload ? { payload } : method === 'GET' || method === 'DELETE' ? {} : { payload: {} }),
    });
  const asAdmin = async (method: string, url: string, payload?: object) => {
    const res = await t.call({ method: method, url, ...(payload ? { payload } : {}) });
    expect(res.statusCode, `${method} ${url}: ${res.body}`).toBeLessThan(300);
    return res;
  };
  const signIn = async (creds: { email: string; password: string }) => {
    const res = await t.app.inject({ method: 'POST', url: '/auth/login', payload: creds });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{ api_key: string }>().api_key;
  };

  beforeAll(async () => {
    t = await startTestApp(dialect);
    for (const d of [OWN, OTHER]) {
      await asAdmin('POST', '/api/dns/zones/add', zoneForm(d));
      await asAdmin('POST', `/api/dns/zones/${d}/records`, { qname: 'www', rtype: 'A', value: '192.0.2.1' });
    }
    for (const email of [`alice@${OWN}`, `gone@${OWN}`, `bulk@${OWN}`, `bob@${OTHER}`])
      await asAdmin('POST', '/api/mail/users/add', {
        email,
        password: 'mailbox-password',
        quota: 0,
        createDomain: true,
      });
    for (const source of [`info@${OWN}`, `info@${OTHER}`])
      await asAdmin('POST', '/api/mail/aliases/add', { source, destination: `alice@${OWN}` });
    const created = await asAdmin('POST', '/api/accounts', {
      ...DA,
      role: 'domain-admin',
      domains: ['Own.Test'],
    });
    expect(created.json()).toMatchObject({ email: DA.email, role: 'domain-admin', domains: [OWN] });
    daToken = await signIn(DA);
  });
  afterAll(async () => t.close());

  it('tells the console who is signed in: role and domains', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/auth/status',
      headers: { authorization: `Bearer ${daToken}` },
    });
    expect(res.json()).toEqual({
      authenticated: true,
      email: DA.email,
      role: 'domain-admin',
      domains: [OWN],
      kind: 'admin',
    });
  });

  it('answers 403 with the error shape on every route not declared for them (enumerated)', async () => {
    const closed = t.app.routeList.filter((r) => isApi(r.url) && !r.public && r.access === null);
    expect(closed.length).toBeGreaterThan(60);
    const urls = new Set(closed.map((r) => `${r.method} ${r.url}`));
    for (const must of [
      'POST /api/mail/domains/add',
      'GET /api/mail/settings',
      'GET /api/ssl/certificates',
      'GET /api/audit',
      'GET /api/accounts',
      'GET /api/events',
      'GET /api/mfa/users',
      'POST /api/apply/:target/retry',
    ])
      expect(urls, must).toContain(must);
    for (const r of closed) {
      const res = await asDa(r.method, concrete(r.url));
      expect(res.statusCode, `${r.method} ${r.url}`).toBe(403);
      if (r.method === 'HEAD') continue; // no body
      expect(res.json(), `${r.method} ${r.url}`).toMatchObject({
        code: 'FORBIDDEN',
        message: expect.any(String),
        timestamp: expect.any(String),
        retryable: false,
      });
    }
  });

  it('lists every domain-scoped route here, and each refuses another domain and works on their own', async () => {
    const scoped = t.app.routeList
      .filter((r) => r.access === 'domain' && r.method !== 'HEAD')
      .map((r) => `${r.method} ${r.url}`);
    expect(scoped.sort()).toEqual(Object.keys(DOMAIN_ROUTES).sort());
    for (const [key, c] of Object.entries(DOMAIN_ROUTES)) {
      const method = key.split(' ')[0]!;
      if (c.other) {
        const res = await asDa(method, c.other.url, c.other.payload);
        expect(res.statusCode, `${key} (other domain): ${res.body}`).toBe(c.other.expect);
        expect(res.json().code).toBe(c.other.expect === 404 ? 'NOT_FOUND' : 'FORBIDDEN');
      }
    }
    // Nothing of the other domain changed.
    const bob = await t.deps.database.db
      .selectFrom('mailboxes')
      .selectAll()
      .where('email', '=', `bob@${OTHER}`)
      .executeTakeFirstOrThrow();
    expect(bob.status).toBe('active');
    const otherRecords = await t.deps.database.db
      .selectFrom('dns_records')
      .select('qname')
      .where('zone', '=', OTHER)
      .execute();
    expect(otherRecords.map((r) => r.qname)).toEqual(['www']);
    // Their own: in this order (the suspended mailbox is removed, then its folder purged).
    for (const [key, c] of Object.entries(DOMAIN_ROUTES)) {
      const method = key.split(' ')[0]!;
      const res = await asDa(method, c.own.url, c.own.payload);
      expect(res.statusCode, `${key} (own domain): ${res.body}`).toBe(c.own.expect);
    }
  });

  it('shows only their domains in lists, search and exports', async () => {
    const get = async (url: string) => {
      const res = await asDa('GET', url);
      expect(res.statusCode, `${url}: ${res.body}`).toBe(200);
      return res;
    };
    const mailboxes = await get('/api/mail/users');
    expect(mailboxes.json<{ domain: string }[]>().every((m) => m.domain === OWN)).toBe(true);
    expect(mailboxes.json<unknown[]>().length).toBeGreaterThan(0);
    expect(Number(mailboxes.headers['x-total-count'])).toBe(mailboxes.json<unknown[]>().length);
    for (const qs of ['?q=b', '?status=active', '?sort=-quota', `?domain=${OTHER}`, '?limit=1&cursor=']) {
      const res = await asDa('GET', `/api/mail/users${qs}`);
      if (res.statusCode !== 200) continue; // an empty cursor is refused as bad input
      expect(
        res.json<{ domain: string }[]>().every((m) => m.domain === OWN),
        qs,
      ).toBe(true);
    }
    const aliases = await get('/api/mail/aliases');
    expect(aliases.json<{ source: string }[]>().map((a) => a.source)).not.toContain(`info@${OTHER}`);
    expect(Number(aliases.headers['x-total-count'])).toBe(aliases.json<unknown[]>().length);
    expect((await get('/api/mail/domains')).json<{ domain: string }[]>().map((d) => d.domain)).toEqual([OWN]);
    const zones = await get('/api/dns/zones');
    expect(zones.json<{ domain: string }[]>().map((z) => z.domain)).toEqual([OWN]);
    expect(zones.headers['x-total-count']).toBe('1');
    const records = await get('/api/dns/records?limit=500');
    expect(new Set(records.json<{ zone: string }[]>().map((r) => r.zone))).toEqual(new Set([OWN]));
    expect(Number(records.headers['x-total-count'])).toBe(records.json<unknown[]>().length);
    const other = await get(`/api/dns/records?zone=${OTHER}`);
    expect(other.json()).toEqual([]);
    // The administrator sees both (the filter is the scope, not the data).
    const all = await t.call({ method: 'GET', url: '/api/dns/zones' });
    expect(all.json<unknown[]>().length).toBe(2);

    const search = await get('/api/search?q=info');
    const titles = search
      .json<{ groups: { hits: { title: string }[] }[] }>()
      .groups.flatMap((g) => g.hits.map((h) => h.title));
    expect(titles).toContain(`info@${OWN}`);
    expect(titles).not.toContain(`info@${OTHER}`);
    const www = await get('/api/search?q=www');
    expect(JSON.stringify(www.json())).not.toContain(OTHER);
    const allSearch = await t.call({ method: 'GET', url: '/api/search?q=info' });
    expect(allSearch.body).toContain(`info@${OTHER}`);

    for (const url of [
      '/api/mail/users/export?format=csv',
      '/api/mail/users/export?format=json',
      '/api/mail/aliases/export?format=csv',
      '/api/dns/records/export?format=json',
    ]) {
      const res = await get(url);
      expect(res.body, url).toContain(OWN);
      expect(res.body, url).not.toContain(`@${OTHER}`);
      expect(res.body, url).not.toContain(`"zone":"${OTHER}"`);
    }
  });

  it('sees only the jobs they started', async () => {
    const adminJobs = await t.call({ method: 'GET', url: '/api/jobs' });
    expect(adminJobs.statusCode).toBe(200);
    const mine = await asDa('GET', '/api/jobs');
    expect(mine.statusCode).toBe(200);
    expect(mine.json<{ startedBy?: string }[]>().every((j) => j.startedBy === DA.email)).toBe(true);
    const someone = adminJobs
      .json<{ id: number; startedBy: string | null }[]>()
      .find((j) => j.startedBy !== DA.email);
    if (someone) expect((await asDa('GET', `/api/jobs/${someone.id}`)).statusCode).toBe(404);
  });

  it('reaches their own account calls and signs out', async () => {
    const res = await asDa('GET', '/api/account/mfa');
    expect(res.statusCode, res.body).toBe(200);
  });

  it('denies a new route that declares nothing (default deny)', async () => {
    const app = Fastify();
    app.setValidatorCompiler(validatorCompiler);
    app.setSerializerCompiler(serializerCompiler);
    installErrorHandler(app);
    installAuthGuard(app, t.deps.database.db, { idleMs: 60_000, absoluteMs: 3_600_000 });
    const undeclared: RouteDef = {
      method: 'GET',
      path: 'brand-new',
      summary: 'new',
      tags: [],
      response: z.object({ ok: z.boolean() }),
    };
    const declared: RouteDef = { ...undeclared, path: 'brand-new-domain', access: 'domain' };
    registerRoute(app, undeclared, async () => ({ ok: true }));
    registerRoute(app, declared, async () => ({ ok: true }));
    await app.ready();
    const headers = { authorization: `Bearer ${daToken}` };
    expect((await app.inject({ method: 'GET', url: '/api/brand-new', headers })).statusCode).toBe(403);
    expect((await app.inject({ method: 'GET', url: '/api/brand-new-domain', headers })).statusCode).toBe(200);
    expect(
      (
        await app.inject({
          method: 'GET',
          url: '/api/brand-new',
          headers: { authorization: `Bearer ${t.token}` },
        })
      ).statusCode,
    ).toBe(200);
    await app.close();
  });

  it('lets administrators change and remove domain administrators (audited), never the last administrator', async () => {
    const list = await t.call({ method: 'GET', url: '/api/accounts' });
    expect(list.json()).toContainEqual(
      expect.objectContaining({ email: DA.email, role: 'domain-admin', domains: [OWN] }),
    );
    const bad = await t.call({
      method: 'POST',
      url: '/api/accounts',
      payload: { email: 'x@example.com', password: 'long-enough-pass', role: 'domain-admin', domains: [] },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().details).toContainEqual({ field: 'domains', message: 'Assign at least one domain' });
    const badDomain = await t.call({
      method: 'PUT',
      url: `/api/accounts/${DA.email}`,
      payload: { role: 'domain-admin', domains: ['not a domain'] },
    });
    expect(badDomain.statusCode).toBe(400);
    // A change of scope ends the account's sessions (issue 22 item 5): it signs in again under it.
    const upd = await t.call({
      method: 'PUT',
      url: `/api/accounts/${DA.email}`,
      payload: { role: 'domain-admin', domains: [OWN, OTHER] },
    });
    expect(upd.statusCode, upd.body).toBe(200);
    expect(upd.json().domains).toEqual([OTHER, OWN]);
    expect((await asDa('GET', `/api/dns/zones/${OTHER}`)).statusCode).toBe(401);
    daToken = await signIn(DA);
    expect((await asDa('GET', `/api/dns/zones/${OTHER}`)).statusCode).toBe(200);
    const narrowed = await t.call({
      method: 'PUT',
      url: `/api/accounts/${DA.email}`,
      payload: { role: 'domain-admin', domains: [OWN] },
    });
    expect(narrowed.statusCode).toBe(200);
    expect((await asDa('GET', `/api/dns/zones/${OTHER}`)).statusCode).toBe(401);
    daToken = await signIn(DA);
    expect((await asDa('GET', `/api/dns/zones/${OTHER}`)).statusCode).toBe(404);
    // The only full administrator cannot be demoted (by anyone) or remove themself.
    const self = await t.call({
      method: 'PUT',
      url: '/api/accounts/admin@example.com',
      payload: { role: 'domain-admin', domains: [OWN] },
    });
    expect(self.statusCode).toBe(403);
    const remove = await t.call({ method: 'DELETE', url: `/api/accounts/${DA.email}` });
    expect(remove.statusCode).toBe(200);
    expect((await asDa('GET', '/api/mail/users')).statusCode).toBe(401);
    const audit = await t.deps.database.db
      .selectFrom('audit_log')
      .select(['action', 'target', 'outcome'])
      .where('target', '=', DA.email)
      .execute();
    expect(audit.map((a) => a.action)).toEqual(
      expect.arrayContaining(['auth.admin.add', 'auth.admin.update', 'auth.admin.remove']),
    );
  });

  it('keeps the accounts catalogue declared admin-only', () => {
    for (const r of Object.values(accountsRoutes)) expect((r as RouteDef).access).toBeUndefined();
  });
});
