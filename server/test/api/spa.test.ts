import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialects, startTestApp, type TestContext } from '../harness.ts';

const INDEX =
  '<!doctype html><html><head><script type="module" src="/assets/index-abc123.js"></script></head><body><div id="root"></div></body></html>';

describe.each(dialects())('the console (SPA) on %s', (dialect) => {
  let t: TestContext;
  let bare: TestContext;
  let dist: string;
  beforeAll(async () => {
    dist = mkdtempSync(path.join(os.tmpdir(), 'mailroom-dist-'));
    mkdirSync(path.join(dist, 'assets'));
    writeFileSync(path.join(dist, 'index.html'), INDEX);
    writeFileSync(path.join(dist, 'assets', 'index-abc123.js'), 'console.log("mailroom")');
    writeFileSync(path.join(dist, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
    t = await startTestApp(dialect, { env: { MAILROOM_WEB_DIST: dist } });
    bare = await startTestApp(dialect);
  });
  afterAll(async () => {
    await t.close();
    await bare.close();
    rmSync(dist, { recursive: true, force: true });
  });

  it('serves index.html for every route of the console (history fallback)', async () => {
    for (const url of [
      '/',
      '/login',
      '/dashboard',
      '/mail/aliases',
      '/mail/aliases?q=x',
      '/dns/zones/example.com',
      '/no/such/page',
    ]) {
      const res = await t.app.inject({ url });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type'], url).toMatch(/^text\/html/);
      expect(res.body, url).toBe(INDEX);
      expect(res.headers['cache-control'], url).toBe('no-cache');
      expect(String(res.headers['content-security-policy'])).toContain("script-src 'self'");
    }
  });

  it('serves hashed assets for a year and other files as they are', async () => {
    const js = await t.app.inject({ url: '/assets/index-abc123.js' });
    expect(js.statusCode).toBe(200);
    expect(js.headers['content-type']).toMatch(/javascript/);
    expect(js.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(js.body).toBe('console.log("mailroom")');
    const icon = await t.app.inject({ url: '/favicon.svg' });
    expect(icon.statusCode).toBe(200);
    expect(icon.headers['content-type']).toMatch(/^image\/svg\+xml/);
  });

  it('answers a missing asset with 404, never with index.html', async () => {
    const res = await t.app.inject({ url: '/assets/index-old999.js' });
    expect(res.statusCode).toBe(404);
    expect(res.body).not.toContain('<html');
  });

  it('does not serve files from outside the build', async () => {
    for (const url of [
      '/assets/..%2f..%2fetc%2fpasswd',
      '/assets/%2e%2e/%2e%2e/etc/passwd',
      '/..%2f..%2fetc%2fpasswd',
    ]) {
      const res = await t.app.inject({ url });
      expect(res.body, url).not.toContain('root:');
      expect([200, 403, 404], url).toContain(res.statusCode);
      if (res.statusCode === 200) expect(res.body).toBe(INDEX);
    }
  });

  it('keeps API misses as JSON errors, not the page', async () => {
    const api = await t.call({ url: '/api/mail/nothing' });
    expect(api.statusCode).toBe(404);
    expect(api.json().code).toBe('NOT_FOUND');
    const auth = await t.app.inject({ url: '/auth/nothing' });
    expect(auth.statusCode).toBe(404);
    expect(auth.json().code).toBe('NOT_FOUND');
    const post = await t.app.inject({ method: 'POST', url: '/mail/aliases' });
    expect(post.statusCode).toBe(404);
  });

  it('says how to build the console when there is no build', async () => {
    const res = await bare.app.inject({ url: '/mail/aliases' });
    expect(res.statusCode).toBe(503);
    expect(res.body).toContain('npm run build');
  });
});
