import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialects, startTestApp, type TestContext } from '../harness.ts';

describe.each(dialects())('cross-site request guard on %s', (dialect) => {
  let t: TestContext;
  const addDomain = (headers: Record<string, string>, domain: string) =>
    t.app.inject({ method: 'POST', url: '/api/mail/domains/add', headers, payload: { domain } });

  beforeAll(async () => {
    t = await startTestApp(dialect);
  });
  afterAll(async () => t.close());

  it('refuses a cookie-authenticated state change without the console header or our Origin', async () => {
    const cookie = `mailroom_session=${t.token}`;
    const forged = await addDomain({ cookie }, 'forged.example');
    expect(forged.statusCode).toBe(403);
    expect(forged.json()).toMatchObject({ code: 'FORBIDDEN', retryable: false });
    const foreign = await addDomain({ cookie, origin: 'https://evil.example.net' }, 'forged.example');
    expect(foreign.statusCode).toBe(403);
    const domains = (await t.call({ url: '/api/mail/domains' })).json<{ domain: string }[]>();
    expect(domains.map((d) => d.domain)).not.toContain('forged.example');

    // Reads are not state changes.
    expect((await t.app.inject({ url: '/api/mail/domains', headers: { cookie } })).statusCode).toBe(200);
    // The console's header, or a same-origin Origin, passes.
    expect((await addDomain({ cookie, 'x-requested-with': 'mailroom' }, 'console.example')).statusCode).toBe(
      200,
    );
    expect((await addDomain({ cookie, origin: 'http://localhost:80' }, 'origin.example')).statusCode).toBe(
      200,
    );
  });

  it('does not affect bearer-key calls', async () => {
    expect(
      (await t.call({ method: 'POST', url: '/api/mail/domains/add', payload: { domain: 'bearer.example' } }))
        .statusCode,
    ).toBe(200);
  });

  it('refuses text/plain bodies (415) on state changes, the CSV imports included', async () => {
    for (const url of ['/api/mail/aliases/import', '/api/dns/records/import', '/api/mail/domains/add']) {
      const res = await t.call({
        method: 'POST',
        url,
        headers: { 'content-type': 'text/plain' },
        payload: 'source,destination\na@example.com,b@example.org\n',
      });
      expect(res.statusCode, url).toBe(415);
    }
    const csv = await t.call({
      method: 'POST',
      url: '/api/mail/aliases/import?dryRun=1',
      headers: { 'content-type': 'text/csv' },
      payload: 'source,destination\na@example.com,b@example.org\n',
    });
    expect(csv.statusCode).toBe(200);
  });
});
