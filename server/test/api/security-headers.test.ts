import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialects, startTestApp, type TestContext } from '../harness.ts';

function directives(csp: string): Map<string, string[]> {
  return new Map(
    csp
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .filter((parts) => parts[0])
      .map(([name, ...values]) => [name!, values]),
  );
}

const badLogin = (t: TestContext, headers: Record<string, string>) =>
  t.app.inject({
    method: 'POST',
    url: '/auth/login',
    payload: { email: 'ip-probe@example.com', password: 'wrong-password' },
    headers,
  });

describe.each(dialects())('security headers and client address on %s', (dialect) => {
  let t: TestContext;
  let proxied: TestContext;
  beforeAll(async () => {
    t = await startTestApp(dialect);
    proxied = await startTestApp(dialect, { env: { MAILROOM_TRUST_PROXY: '1' } });
  });
  afterAll(async () => {
    await t.close();
    await proxied.close();
  });

  it('sends API answers and errors the OWASP REST set: no content, no framing, nosniff, no caching', async () => {
    for (const res of [
      await t.app.inject({ url: '/auth/status' }),
      await t.app.inject({ url: '/api/audit' }),
      await t.app.inject({ url: '/api/index.php?path=audit' }),
    ]) {
      const csp = directives(String(res.headers['content-security-policy']));
      expect(csp.get('default-src')).toEqual(["'none'"]);
      expect(csp.get('frame-ancestors')).toEqual(["'none'"]);
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['x-frame-options']).toBe('DENY');
      expect(res.headers['cross-origin-resource-policy']).toBe('same-origin');
      expect(res.headers['referrer-policy']).toBe('no-referrer');
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.headers['x-powered-by']).toBeUndefined();
      // Document-only headers stay off answers a browser never renders.
      expect(res.headers['cross-origin-opener-policy']).toBeUndefined();
      expect(res.headers['x-xss-protection']).toBeUndefined();
    }
  });

  it('sends pages a CSP without inline script, no framing, nosniff, origin isolation', async () => {
    // /api-monitoring is a page whose path starts like the API's: it gets the page's set.
    for (const url of ['/login', '/api-monitoring']) {
      const page = directives(String((await t.app.inject({ url })).headers['content-security-policy']));
      expect(page.get('script-src'), url).toEqual(["'self'"]);
    }
    const res = await t.app.inject({ url: '/login' });
    const csp = directives(String(res.headers['content-security-policy']));
    expect(csp.get('script-src')).toEqual(["'self'"]);
    expect(csp.get('default-src')).toEqual(["'self'"]);
    expect(csp.get('frame-ancestors')).toEqual(["'none'"]);
    expect(csp.get('object-src')).toEqual(["'none'"]);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['x-frame-options']).toBe('DENY');
    expect(res.headers['referrer-policy']).toBe('no-referrer');
    expect(res.headers['cross-origin-opener-policy']).toBe('same-origin');
    expect(res.headers['x-powered-by']).toBeUndefined();
  });

  it('sends HSTS only for TLS seen through a trusted proxy', async () => {
    const plain = await t.app.inject({ url: '/auth/status' });
    expect(plain.headers['strict-transport-security']).toBeUndefined();
    // Without MAILROOM_TRUST_PROXY the header is someone's claim, not a fact.
    const claimed = await t.app.inject({ url: '/auth/status', headers: { 'x-forwarded-proto': 'https' } });
    expect(claimed.headers['strict-transport-security']).toBeUndefined();
    const viaProxy = await proxied.app.inject({
      url: '/auth/status',
      headers: { 'x-forwarded-proto': 'https' },
    });
    expect(viaProxy.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
    const httpViaProxy = await proxied.app.inject({
      url: '/auth/status',
      headers: { 'x-forwarded-proto': 'http' },
    });
    expect(httpViaProxy.headers['strict-transport-security']).toBeUndefined();
  });

  it('marks the session cookie Secure behind a trusted TLS proxy', async () => {
    const res = await proxied.app.inject({
      method: 'POST',
      url: '/auth/login',
      payload: { email: 'admin@example.com', password: 'correct-horse-battery' },
      headers: { 'x-forwarded-proto': 'https' },
    });
    expect(res.statusCode).toBe(200);
    expect(String(res.headers['set-cookie'])).toMatch(/; Secure/);
  });

  it('ignores client address headers unless MAILROOM_TRUST_PROXY is set', async () => {
    await badLogin(t, { 'x-forwarded-for': '203.0.113.66', 'x-real-ip': '203.0.113.67' });
    const direct = (await t.call({ url: '/api/audit?action=auth.login&limit=1' })).json().entries[0];
    expect(direct.actor).toBe('ip-probe@example.com');
    expect(direct.ip).toBe('127.0.0.1');

    await badLogin(proxied, { 'x-forwarded-for': '203.0.113.66' });
    const viaProxy = (await proxied.call({ url: '/api/audit?action=auth.login&limit=1' })).json().entries[0];
    expect(viaProxy.actor).toBe('ip-probe@example.com');
    expect(viaProxy.ip).toBe('203.0.113.66');
  });
});
