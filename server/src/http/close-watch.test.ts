import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { pendingCloseHooks, watchCloseHooks } from './close-watch.ts';

describe('watchCloseHooks', () => {
  it('names the close hooks still running, of both kinds, and none once closed', async () => {
    const app = Fastify();
    watchCloseHooks(app);
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    let seen: string[] = [];
    app.addHook('onClose', (_i, done) => {
      seen = pendingCloseHooks(app);
      done();
    });
    app.addHook('onClose', async () => {
      await held;
    });
    const closing = app.close();
    await new Promise((r) => setTimeout(r, 20));
    const waiting = pendingCloseHooks(app);
    expect(waiting).toHaveLength(1);
    expect(waiting[0]).toContain('close-watch.test.ts');
    release();
    await closing;
    // The callback hook saw itself running.
    expect(seen).toHaveLength(1);
    expect(pendingCloseHooks(app)).toEqual([]);
  });

  it('keeps other hooks in their plugin (encapsulation)', async () => {
    const app = Fastify();
    watchCloseHooks(app);
    await app.register(async (child) => {
      child.addHook('onRequest', async (_req, reply) => reply.code(418).send('inner'));
      child.get('/inner', async () => 'no');
    });
    app.get('/outer', async () => 'yes');
    expect((await app.inject({ url: '/inner' })).statusCode).toBe(418);
    expect((await app.inject({ url: '/outer' })).body).toBe('yes');
    await app.close();
  });
});
