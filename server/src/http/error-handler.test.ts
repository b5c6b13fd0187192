import Fastify, { type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { installErrorHandler } from './error-handler.ts';
import { checkFailed, conflict, fieldError, forbidden, notFound, tooManyRequests } from './errors.ts';

function expectShape(body: Record<string, unknown>, code: string, retryable: boolean): void {
  expect(Object.keys(body).sort()).toEqual(['code', 'details', 'message', 'retryable', 'timestamp']);
  expect(body.code).toBe(code);
  expect(body.retryable).toBe(retryable);
  expect(typeof body.message).toBe('string');
  expect(Date.parse(body.timestamp as string)).not.toBeNaN();
}

describe('error handler', () => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = Fastify({ logger: false });
    app.setValidatorCompiler(validatorCompiler);
    app.setSerializerCompiler(serializerCompiler);
    installErrorHandler(app);
    app.get('/field', async () => {
      throw fieldError('name', 'Name is required');
    });
    app.get('/forbidden', async () => {
      throw forbidden();
    });
    app.get('/missing', async () => {
      throw notFound();
    });
    app.get('/conflict', async () => {
      throw conflict('Mailbox already exists', { field: 'email' });
    });
    app.get('/throttled', async () => {
      throw tooManyRequests(42);
    });
    app.get('/check', async () => {
      throw checkFailed('named-checkzone refused the zone', 'zone example.com/IN: has 0 SOA records');
    });
    app.get('/unique', async () => {
      throw Object.assign(new Error('UNIQUE constraint failed: admins.email'), {
        code: 'SQLITE_CONSTRAINT_UNIQUE',
      });
    });
    app.get('/pg-unique', async () => {
      throw Object.assign(new Error('duplicate key value violates unique constraint'), { code: '23505' });
    });
    app.get('/bug', async () => {
      throw new Error('secret internals at /srv/mailroom/db password=hunter2');
    });
    app.get('/bad-answer', { schema: { response: { 200: z.object({ n: z.number() }) } } }, async () => ({
      n: 'x',
    }));
    app.post(
      '/body',
      { schema: { body: z.object({ size: z.number().min(1, 'Size must be at least 1') }) } },
      async () => ({
        ok: true,
      }),
    );
    app.post(
      '/named',
      {
        schema: {
          body: z.object({
            name: z
              .string()
              .min(1, 'Name is required')
              .regex(/^[a-z]+$/, 'Name must be lowercase'),
          }),
        },
      },
      async () => ({ ok: true }),
    );
    await app.ready();
  });
  afterAll(async () => app.close());

  it('answers a field error as 400 naming the field', async () => {
    const res = await app.inject({ url: '/field' });
    expect(res.statusCode).toBe(400);
    expectShape(res.json(), 'VALIDATION_ERROR', false);
    expect(res.json().details).toEqual([{ field: 'name', message: 'Name is required' }]);
  });

  it('maps schema validation to 400 with per-field details', async () => {
    const res = await app.inject({ method: 'POST', url: '/body', payload: { size: 0 } });
    expect(res.statusCode).toBe(400);
    expectShape(res.json(), 'VALIDATION_ERROR', false);
    expect(res.json().details).toEqual([{ field: 'size', message: 'Size must be at least 1' }]);
    expect(res.json().message).toBe('Size must be at least 1');
  });

  it('gives one message per field: the first rule that failed', async () => {
    const res = await app.inject({ method: 'POST', url: '/named', payload: { name: '' } });
    expect(res.json().details).toEqual([{ field: 'name', message: 'Name is required' }]);
    const upper = await app.inject({ method: 'POST', url: '/named', payload: { name: 'ABC' } });
    expect(upper.json().details).toEqual([{ field: 'name', message: 'Name must be lowercase' }]);
  });

  it.each([
    ['/forbidden', 403, 'FORBIDDEN', false],
    ['/missing', 404, 'NOT_FOUND', false],
    ['/conflict', 409, 'CONFLICT', false],
    ['/check', 422, 'CHECK_FAILED', false],
    ['/throttled', 429, 'RATE_LIMITED', true],
  ] as const)('answers %s with %i %s', async (url, status, code, retryable) => {
    const res = await app.inject({ url });
    expect(res.statusCode).toBe(status);
    expectShape(res.json(), code, retryable);
  });

  it('sends Retry-After with 429', async () => {
    const res = await app.inject({ url: '/throttled' });
    expect(res.headers['retry-after']).toBe('42');
    expect(res.json().details).toEqual({ retryAfter: 42 });
  });

  it('turns a unique-constraint race on either database into 409', async () => {
    for (const url of ['/unique', '/pg-unique']) {
      const res = await app.inject({ url });
      expect(res.statusCode).toBe(409);
      expectShape(res.json(), 'CONFLICT', true);
    }
  });

  it('hides internals of a real fault behind a plain 500', async () => {
    for (const url of ['/bug', '/bad-answer']) {
      const res = await app.inject({ url });
      expect(res.statusCode).toBe(500);
      expectShape(res.json(), 'INTERNAL_ERROR', true);
      expect(res.json().message).toBe('Internal server error');
      expect(res.body).not.toContain('hunter2');
      expect(res.body).not.toContain('/srv');
    }
  });

  it('answers malformed JSON, wrong media type and empty JSON bodies with 4xx', async () => {
    const bad = await app.inject({
      method: 'POST',
      url: '/body',
      headers: { 'content-type': 'application/json' },
      payload: '{"size":',
    });
    expect(bad.statusCode).toBe(400);
    expectShape(bad.json(), 'BAD_REQUEST', false);
    const xml = await app.inject({
      method: 'POST',
      url: '/body',
      headers: { 'content-type': 'application/xml' },
      payload: '<a/>',
    });
    expect(xml.statusCode).toBe(415);
    expectShape(xml.json(), 'BAD_REQUEST', false);
    const empty = await app.inject({
      method: 'POST',
      url: '/body',
      headers: { 'content-type': 'application/json' },
      payload: '',
    });
    expect(empty.statusCode).toBe(400);
  });
});
