import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialects, startTestApp, type TestContext } from '../harness.ts';

/** The value of one sample line, e.g. `name{a="b"} 3`. */
function sample(text: string, name: string, labels: Record<string, string>): number | null {
  for (const line of text.split('\n')) {
    if (!line.startsWith(name + '{')) continue;
    const body = line.slice(name.length + 1, line.lastIndexOf('}'));
    const got = Object.fromEntries([...body.matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1], m[2]]));
    if (
      Object.entries(labels).every(([k, v]) => got[k] === v) &&
      Object.keys(got).length === Object.keys(labels).length
    ) {
      return Number(line.slice(line.lastIndexOf(' ') + 1));
    }
  }
  return null;
}

describe.each(dialects())('/metrics on %s', (dialect) => {
  let t: TestContext;
  beforeAll(async () => {
    t = await startTestApp(dialect);
  });
  afterAll(async () => t.close());

  it('counts requests by method, route pattern and status in Prometheus text', async () => {
    for (let i = 0; i < 3; i++) await t.call({ url: '/api/system/status' });
    await t.app.inject({ url: '/api/system/status' });
    await t.call({ url: '/api/index.php?path=system/status' });
    await t.call({ url: '/api/definitely/not/here' });

    const res = await t.app.inject({ url: '/metrics' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = res.body;
    expect(text).toContain('# TYPE mailroom_http_requests_total counter');
    // Both URL forms land on the route pattern, never on raw URLs.
    expect(
      sample(text, 'mailroom_http_requests_total', {
        method: 'GET',
        route: '/api/system/status',
        status: '200',
      }),
    ).toBe(4);
    expect(
      sample(text, 'mailroom_http_requests_total', {
        method: 'GET',
        route: '/api/system/status',
        status: '401',
      }),
    ).toBe(1);
    expect(
      sample(text, 'mailroom_http_requests_total', { method: 'POST', route: '/auth/login', status: '200' }),
    ).toBe(1);
    expect(
      sample(text, 'mailroom_http_requests_total', { method: 'GET', route: 'unmatched', status: '404' }),
    ).toBe(1);
    expect(text).not.toContain('definitely/not/here');

    expect(text).toContain('# TYPE mailroom_http_request_duration_seconds histogram');
    expect(
      sample(text, 'mailroom_http_request_duration_seconds_count', {
        method: 'GET',
        route: '/api/system/status',
        status: '200',
      }),
    ).toBe(4);
    expect(
      sample(text, 'mailroom_http_request_duration_seconds_bucket', {
        le: '+Inf',
        method: 'GET',
        route: '/api/system/status',
        status: '200',
      }),
    ).toBe(4);
    // Process metrics come along.
    expect(text).toContain('process_cpu_user_seconds_total');
  });
});
