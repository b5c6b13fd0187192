import { OkResponse } from '@mailroom/contract/common';
import { TOTAL_CAP } from '@mailroom/contract/common';
import { defineRoute } from '@mailroom/contract/route';
import Fastify, { type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { recordAudit } from '../../src/http/audit-log.repository.ts';
import { installAuthGuard } from '../../src/http/auth-guard.ts';
import { installErrorHandler } from '../../src/http/error-handler.ts';
import { conflict } from '../../src/http/errors.ts';
import { registerRoute } from '../../src/http/register-route.ts';
import { ADMIN, dialects, startTestApp, type TestContext } from '../harness.ts';

// A state-changing route of the kind every feature registers, on an app with the real guard.
const createThing = defineRoute({
  method: 'POST',
  path: 'things/:name',
  summary: 'test',
  tags: ['test'],
  params: z.object({ name: z.string() }),
  body: z.object({ size: z.number().int().min(1, 'Size must be at least 1') }),
  response: OkResponse,
  audit: 'test.thing.create',
});
const renameThing = defineRoute({
  method: 'PUT',
  path: 'things/:name',
  summary: 'test',
  tags: ['test'],
  params: z.object({ name: z.string() }),
  body: z.object({ to: z.string() }),
  response: OkResponse,
  audit: 'test.thing.rename',
});
const readThing = defineRoute({
  method: 'GET',
  path: 'things/:name',
  summary: 'test',
  tags: ['test'],
  params: z.object({ name: z.string() }),
  response: OkResponse,
  audit: 'test.thing.read',
});

describe.each(dialects())('audit log on %s', (dialect) => {
  let t: TestContext;
  let mini: FastifyInstance;
  beforeAll(async () => {
    t = await startTestApp(dialect);
    mini = Fastify({ logger: false });
    mini.setValidatorCompiler(validatorCompiler);
    mini.setSerializerCompiler(serializerCompiler);
    installErrorHandler(mini);
    installAuthGuard(mini, t.deps.database.db, { idleMs: 60_000, absoluteMs: 3_600_000 });
    registerRoute(mini, createThing, async ({ params }) => {
      if (params.name === 'taken') throw conflict('That thing already exists');
      return { success: true as const };
    });
    registerRoute(mini, renameThing, async ({ body, request }) => {
      request.auditTarget = `thing:${body.to}`;
      request.auditDetails = { renamed: true };
      return { success: true as const };
    });
    registerRoute(mini, readThing, async () => ({ success: true as const }));
    await mini.ready();
  });
  afterAll(async () => {
    await mini.close();
    await t.close();
  });

  const latest = async (action: string) =>
    (await t.call({ url: `/api/audit?action=${encodeURIComponent(action)}&limit=1` })).json().entries[0];
  const bearer = () => ({ authorization: `Bearer ${t.token}` });

  it('records who, what, target, when, where from and the outcome of a state-changing call', async () => {
    const before = Date.now();
    const res = await mini.inject({
      method: 'POST',
      url: '/api/things/widget',
      headers: bearer(),
      payload: { size: 3 },
      remoteAddress: '192.0.2.44',
    });
    expect(res.statusCode).toBe(200);
    const e = await latest('test.thing.create');
    expect(e).toMatchObject({
      actor: ADMIN.email,
      action: 'test.thing.create',
      target: 'widget',
      ip: '192.0.2.44',
      outcome: 'success',
      details: null,
    });
    expect(Date.parse(e.at)).toBeGreaterThanOrEqual(before - 1000);
    expect(Date.parse(e.at)).toBeLessThanOrEqual(Date.now() + 1000);
  });

  it('records refused calls as failures with their status', async () => {
    await mini.inject({ method: 'POST', url: '/api/things/widget', headers: bearer(), payload: { size: 0 } });
    const invalid = await latest('test.thing.create');
    expect(invalid).toMatchObject({ target: 'widget', outcome: 'failure' });
    expect(JSON.parse(invalid.details)).toEqual({ status: 400 });

    await mini.inject({ method: 'POST', url: '/api/things/taken', headers: bearer(), payload: { size: 1 } });
    const taken = await latest('test.thing.create');
    expect(taken).toMatchObject({ target: 'taken', outcome: 'failure' });
    expect(JSON.parse(taken.details)).toEqual({ status: 409 });
  });

  it('uses the target and details a handler names', async () => {
    await mini.inject({ method: 'PUT', url: '/api/things/old', headers: bearer(), payload: { to: 'new' } });
    const e = await latest('test.thing.rename');
    expect(e).toMatchObject({ target: 'thing:new', outcome: 'success' });
    expect(JSON.parse(e.details)).toEqual({ renamed: true });
  });

  it('does not record reads, nor calls without a session', async () => {
    const count = async () => (await t.call({ url: '/api/audit?action=test.thing.' })).json().total;
    const n = await count();
    expect((await mini.inject({ url: '/api/things/widget', headers: bearer() })).statusCode).toBe(200);
    expect(
      (await mini.inject({ method: 'POST', url: '/api/things/widget', payload: { size: 1 } })).statusCode,
    ).toBe(401);
    expect(await count()).toBe(n);
  });

  it('pages newest first with limit and offset, and counts the total', async () => {
    const db = t.deps.database.db;
    for (let i = 0; i < 7; i++) {
      await recordAudit(db, {
        actor: 'pager',
        action: 'paging.step',
        target: `step-${i}`,
        outcome: 'success',
      });
    }
    const page1 = (await t.call({ url: '/api/audit?action=paging.&limit=3' })).json();
    const page2 = (await t.call({ url: '/api/audit?action=paging.&limit=3&offset=3' })).json();
    const page3 = (await t.call({ url: '/api/audit?action=paging.&limit=3&offset=6' })).json();
    expect(page1.total).toBe(7);
    expect(page1.entries.map((e: { target: string }) => e.target)).toEqual(['step-6', 'step-5', 'step-4']);
    expect(page2.entries.map((e: { target: string }) => e.target)).toEqual(['step-3', 'step-2', 'step-1']);
    expect(page3.entries.map((e: { target: string }) => e.target)).toEqual(['step-0']);
    const all = (await t.call({ url: '/api/audit' })).json();
    expect(all.total).toBeGreaterThan(7);
    expect(all.entries.length).toBe(Math.min(50, all.total));
    const ids = all.entries.map((e: { id: number }) => e.id);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
  });

  it('stops counting at the cap and says so, while a narrower filter counts exactly', async () => {
    const db = t.deps.database.db;
    const at = new Date().toISOString();
    const rows = Array.from({ length: TOTAL_CAP + 5 }, (_, i) => ({
      at,
      actor: 'bulk',
      action: i < 3 ? 'capped.rare' : 'capped.bulk',
      target: `t${i}`,
      outcome: 'success',
    }));
    for (let i = 0; i < rows.length; i += 1000)
      await db
        .insertInto('audit_log')
        .values(rows.slice(i, i + 1000))
        .execute();
    const all = (await t.call({ url: '/api/audit?limit=5' })).json();
    expect(all.total).toBe(TOTAL_CAP);
    expect(all.totalCapped).toBe(true);
    const rare = (await t.call({ url: '/api/audit?action=capped.rare' })).json();
    expect(rare.total).toBe(3);
    expect(rare.totalCapped).toBeUndefined();
    await db.deleteFrom('audit_log').where('action', 'like', 'capped.%').execute();
  });

  it('filters by a literal action prefix (no wildcards)', async () => {
    const db = t.deps.database.db;
    await recordAudit(db, { actor: 'x', action: 'lit.a_b', outcome: 'success' });
    await recordAudit(db, { actor: 'x', action: 'lit.axb', outcome: 'success' });
    await recordAudit(db, { actor: 'x', action: 'lit.100%', outcome: 'success' });
    await recordAudit(db, { actor: 'x', action: 'lit.1000', outcome: 'success' });
    const underscore = (await t.call({ url: '/api/audit?action=lit.a_' })).json();
    expect(underscore.entries.map((e: { action: string }) => e.action)).toEqual(['lit.a_b']);
    const percent = (await t.call({ url: `/api/audit?action=${encodeURIComponent('lit.100%')}` })).json();
    expect(percent.entries.map((e: { action: string }) => e.action)).toEqual(['lit.100%']);
    expect((await t.call({ url: '/api/audit?action=LIT.' })).json().total).toBe(0);
  });

  it('refuses bad paging parameters naming them', async () => {
    for (const [q, field] of [
      ['limit=0', 'limit'],
      ['limit=501', 'limit'],
      ['limit=ten', 'limit'],
      ['offset=-1', 'offset'],
      [`action=${'a'.repeat(101)}`, 'action'],
    ]) {
      const res = await t.call({ url: `/api/audit?${q}` });
      expect(res.statusCode, q).toBe(400);
      expect(res.json().details[0].field, q).toBe(field);
    }
  });
});
