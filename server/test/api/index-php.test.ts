import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialects, startTestApp, type TestContext } from '../harness.ts';

describe.each(dialects())('index.php?path= on %s', (dialect) => {
  let t: TestContext;
  beforeAll(async () => {
    t = await startTestApp(dialect);
  });
  afterAll(async () => t.close());

  it('reaches the same handler as /api/<path>, with the other parameters', async () => {
    const direct = await t.call({ url: '/api/audit?limit=2&offset=0&action=auth.' });
    const legacy = await t.call({ url: '/api/index.php?path=audit&limit=2&offset=0&action=auth.' });
    expect(direct.statusCode).toBe(200);
    expect(legacy.statusCode).toBe(200);
    expect(legacy.json()).toEqual(direct.json());
    expect(legacy.json().entries.length).toBeGreaterThan(0);

    const encoded = await t.call({ url: `/api/index.php?path=${encodeURIComponent('system/status')}` });
    expect(encoded.statusCode).toBe(200);
    const statusDirect = await t.call({ url: '/api/system/status' });
    expect(Object.keys(encoded.json()).sort()).toEqual(Object.keys(statusDirect.json()).sort());
    expect(Object.keys(encoded.json())).toEqual(
      expect.arrayContaining(['disk', 'memory', 'status', 'uptime']),
    );
  });

  it('validates the same way: bad parameters name the field', async () => {
    const direct = await t.call({ url: '/api/audit?limit=0' });
    const legacy = await t.call({ url: '/api/index.php?path=audit&limit=0' });
    expect(direct.statusCode).toBe(400);
    expect(legacy.statusCode).toBe(400);
    expect(legacy.json().details).toEqual(direct.json().details);
    expect(legacy.json().details[0].field).toBe('limit');
  });

  it('needs the same session', async () => {
    expect((await t.app.inject({ url: '/api/index.php?path=system/status' })).statusCode).toBe(401);
    expect((await t.app.inject({ url: '/api/index.php?path=audit' })).statusCode).toBe(401);
  });

  it('sends paths that escape the catalogue to 404, even with a key', async () => {
    for (const bad of [
      '../../etc/passwd',
      '/etc/passwd',
      'audit/../../../x',
      '..',
      '',
      'a//b',
      'audit%2F..%2F..',
    ]) {
      const res = await t.call({ url: `/api/index.php?path=${encodeURIComponent(bad)}` });
      expect(res.statusCode, bad).toBe(404);
      expect(res.json()).toMatchObject({ code: 'NOT_FOUND', retryable: false });
    }
    const noPath = await t.call({ url: '/api/index.php' });
    expect(noPath.statusCode).toBe(404);
  });

  it('does not reach /auth through /api', async () => {
    const res = await t.call({
      method: 'POST',
      url: '/api/index.php?path=auth/login',
      payload: { email: 'a@b.co', password: 'x' },
    });
    expect(res.statusCode).toBe(404);
  });
});
