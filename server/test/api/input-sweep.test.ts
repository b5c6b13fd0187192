import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { ErrorResponse, type FieldError } from '@mailroom/contract/errors';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, dialects, startTestApp, type TestContext } from '../harness.ts';
import { zoneForm } from '../dns-zone-form.ts';

/** Regression cases of the bad-input sweep: every one answered 500, hung or did harm before. */

function expectShape(
  res: LightMyRequestResponse,
  status: number,
  code?: string,
): ErrorResponse & { details: FieldError[] } {
  expect(res.statusCode).toBe(status);
  const body = ErrorResponse.strict().parse(res.json());
  if (code) expect(body.code).toBe(code);
  return body as ErrorResponse & { details: FieldError[] };
}

describe.each(dialects())('bad-input sweep regressions on %s', (dialect) => {
  let t: TestContext;
  const post = (url: string, payload?: unknown) =>
    t.call({
      method: 'POST',
      url: `/api/${url}`,
      ...(payload !== undefined ? { payload: payload as object } : {}),
    });

  beforeAll(async () => {
    t = await startTestApp(dialect);
  });
  afterAll(async () => t.close());

  it('purge refuses an address whose domain walks out of the removed-mail area', async () => {
    const victim = path.join(t.deps.host.path('/travtest'), 'x-20260101T000000000Z');
    mkdirSync(victim, { recursive: true });
    const res = await post('mail/users/purge/x%40..%2F..%2F..%2Ftravtest');
    expectShape(res, 400, 'VALIDATION_ERROR');
    expect(res.json().details[0]?.field).toBe('email');
    expect(existsSync(victim)).toBe(true);
    // A plain host-name domain is still purged normally (nothing there: an empty list).
    const ok = await post('mail/users/purge/x%40example.com');
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toEqual({ success: true, removed: [] });
  });

  it.each(['__proto__', 'constructor', 'toString', '-__proto__', 'hasOwnProperty'])(
    'sort=%s on dns lists is no server error',
    async (sort) => {
      for (const url of ['dns/zones', 'dns/records']) {
        const res = await t.call({ url: `/api/${url}?sort=${encodeURIComponent(sort)}` });
        expect(res.statusCode, `${url} sort=${sort}`).toBe(200);
      }
    },
  );

  it('a TLS path naming a folder is saved without a server error (it is looked at, not read)', async () => {
    mkdirSync(t.deps.host.path('/etc'), { recursive: true });
    const current = (await t.call({ url: '/api/dns/settings' })).json();
    const res = await post('dns/settings', {
      ...current,
      enableDnsOverTls: true,
      tlsCertificatePath: '/etc',
      tlsPrivateKeyPath: '/etc',
    });
    expect(res.statusCode).toBeLessThan(500);
  });

  it('a 254-character alias is reachable by path (created, updated and deleted)', async () => {
    const source = `${'a'.repeat(254 - '@example.com'.length)}@example.com`;
    expect(source.length).toBe(254);
    expect(
      (await post('mail/aliases/add', { createDomain: true, source, destination: 'dest@example.org' }))
        .statusCode,
    ).toBe(200);
    const enc = encodeURIComponent(source);
    expect((await post(`mail/aliases/update/${enc}`, { status: 'disabled' })).statusCode).toBe(200);
    expect((await post(`mail/aliases/remove/${enc}`)).statusCode).toBe(200);
    expect((await post(`mail/aliases/remove/${enc}`)).statusCode).toBe(404);
  });

  it('router-level errors use the documented shape (too long a path segment, bad %-escapes)', async () => {
    const long = await post(`mail/aliases/remove/${'a'.repeat(5000)}%40example.com`);
    expectShape(long, 414, 'BAD_REQUEST');
    const bad = await post('mail/aliases/remove/%E0%A4%A');
    expectShape(bad, 400, 'BAD_REQUEST');
  });

  it.each([
    ['ESC', '\u001b'],
    ['BEL', '\u0007'],
    ['DEL', '\u007f'],
    ['NEL', '\u0085'],
    ['zero-width space', '\u200b'],
  ])('an address with %s is refused', async (_name, ch) => {
    const mailbox = await post('mail/users/add', { email: `a${ch}b@example.com`, password: 'long-enough-1' });
    expect(expectShape(mailbox, 400, 'VALIDATION_ERROR').details).toEqual([
      { field: 'email', message: 'Please enter a valid email address' },
    ]);
    const alias = await post('mail/aliases/add', {
      source: 'x@example.com',
      destination: `d${ch}@example.org`,
    });
    expect(alias.json().details[0]?.field).toBe('destination');
    const domain = await post('mail/aliases/add', {
      source: `x@exa${ch}mple.com`,
      destination: 'd@example.org',
    });
    expect(domain.statusCode).toBe(400);
  });

  it.each([[''], [[]], ['0x10'], [true], ['1e3'], [' '], [{}]])(
    'a quota of %j is refused, not coerced',
    async (quota) => {
      const res = await post('mail/users/add', {
        email: 'coerce@example.com',
        password: 'long-enough-1',
        quota,
      });
      expect(expectShape(res, 400, 'VALIDATION_ERROR').details[0]?.field).toBe('quota');
    },
  );

  it('a quota change of "", null, [], "0x10" or true is refused (a "" used to mean unlimited)', async () => {
    expect(
      (
        await post('mail/users/add', {
          createDomain: true,
          email: 'q@example.com',
          password: 'long-enough-1',
          quota: 1024,
        })
      ).statusCode,
    ).toBe(200);
    for (const quota of ['', null, [], '0x10', true]) {
      const res = await post('mail/users/quota/q%40example.com', { quota });
      expect(expectShape(res, 400, 'VALIDATION_ERROR').details[0]?.field, JSON.stringify(quota)).toBe(
        'quota',
      );
    }
    const { items } = {
      items: (await t.call({ url: '/api/mail/users?q=q%40' })).json<{ email: string; quota: number }[]>(),
    };
    expect(items.find((m) => m.email === 'q@example.com')?.quota).toBe(1024);
  });

  it('query-string numbers are parsed strictly', async () => {
    for (const v of ['0x10', '', '1e2', 'true', '5abc']) {
      const res = await t.call({ url: `/api/mail/aliases?limit=${encodeURIComponent(v)}` });
      expect(res.statusCode, `limit=${v}`).toBe(400);
      expect(res.json().details[0]?.field).toBe('limit');
    }
    expect((await t.call({ url: '/api/mail/aliases?limit=10&offset=0' })).statusCode).toBe(200);
    // Decimal strings stay numbers where a form posts them (the DNS settings fields).
    const s = (await t.call({ url: '/api/dns/settings' })).json();
    const res = await post('dns/settings', { ...s, serverPort: '' });
    expect(res.json().details).toContainEqual({ field: 'serverPort', message: 'Server Port is required' });
  });

  it('a 100,000-space CAA value is refused by its length, quickly', async () => {
    await post('dns/zones/add', zoneForm('caa-sweep.test'));
    const res = await post('dns/records/add', {
      zone: 'caa-sweep.test',
      qname: '@',
      rtype: 'CAA',
      value: `0 issue a${' '.repeat(100_000)}b`,
      ttl: 300,
    });
    expect(expectShape(res, 400, 'VALIDATION_ERROR').details[0]?.field).toBe('value');
  });

  it('the SOA admin email must have a host-name domain (it is written into the zone)', async () => {
    const res = await post('dns/zones/add', { ...zoneForm('soa-sweep.test'), adminEmail: 'x@a(b).c;d' });
    expect(expectShape(res, 400, 'VALIDATION_ERROR').details[0]?.field).toBe('adminEmail');
  });

  it('the sign-in answer and API data carry Cache-Control: no-store', async () => {
    const login = await t.app.inject({ method: 'POST', url: '/auth/login', payload: ADMIN });
    expect(login.statusCode).toBe(200);
    expect(login.headers['cache-control']).toBe('no-store');
    const list = await t.call({ url: '/api/mail/users' });
    expect(list.headers['cache-control']).toBe('no-store');
    const viaIndex = await t.call({ url: '/api/index.php?path=mail/aliases' });
    expect(viaIndex.headers['cache-control']).toBe('no-store');
    const denied = await t.app.inject({ url: '/api/mail/users' });
    expect(denied.headers['cache-control']).toBe('no-store');
  });
});
