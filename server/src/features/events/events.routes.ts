import { EVENT_NAMES, EVENTS_PATH } from '@mailroom/contract/jobs';
import { ErrorResponse } from '@mailroom/contract/errors';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { EventHub, ServerEvent } from './event-hub.service.ts';

export interface EventsOptions {
  /** Comment line sent when nothing else was, so proxies and browsers keep the stream. Default 15 s. */
  heartbeatMs?: number;
}

/** The metrics collector as a stream sees it: watching makes it sample every 2 s. */
export interface MetricsFeed {
  watch(): () => void;
  subscribe(listener: (stats: unknown) => void): () => void;
  latest(): unknown;
}

/** Whether the stream's session still stands (checked at each heartbeat, without sliding it). */
export type SessionCheck = (sessionId: number) => Promise<boolean>;

/**
 * `GET /api/events`: one Server-Sent Events stream per console. The auth guard checks the session
 * (cookie or bearer) like any /api route. Events: `ready` (with the jobs still going), `job`
 * (progress and ends), `notification`, `mail-save` (a mail settings save's steps as they change,
 * sent by whichever cluster worker runs the save: EventHub.publish).
 */
export function registerEvents(
  app: FastifyInstance,
  hub: EventHub,
  sessionAlive: SessionCheck,
  opts: EventsOptions = {},
  metrics?: MetricsFeed,
): void {
  const heartbeatMs = opts.heartbeatMs ?? 15_000;
  const open = new Set<() => void>();

  app.get(
    EVENTS_PATH,
    {
      schema: {
        summary:
          'Server-Sent Events (text/event-stream): ready (the jobs still going), job (progress and ends), notification, mail-save (a mail settings save’s steps as they change, under the saveId it was sent with); with ?topics=metrics also metrics (every 2 s)',
        tags: ['events'],
        response: {
          200: z.string().describe('An endless text/event-stream; heartbeats every 15 s'),
          ...Object.fromEntries([400, 401, 429].map((s) => [s, ErrorResponse])),
        },
        security: [{ bearer: [] }],
      },
    },
    async (request, reply) => {
      const live = await hub.liveJobs();
      const raw = reply.raw;
      reply.hijack();
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(reply.getHeaders())) if (v !== undefined) headers[k] = String(v);
      raw.writeHead(200, {
        ...headers,
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-store',
        connection: 'keep-alive',
        'x-accel-buffering': 'no',
      });
      let seq = 0;
      const write = (event: string, data: unknown) => {
        raw.write(`id: ${++seq}\nevent: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
      };
      // Tell EventSource how long to wait before reconnecting, then the current state.
      raw.write('retry: 3000\n\n');
      write(EVENT_NAMES.ready, { jobs: live });
      const unsubscribe = hub.subscribe((e: ServerEvent) => write(e.type, e.data));
      // `?topics=metrics`: the machine's figures too, sampled every 2 s while this stream is open.
      const rawTopics = (request.query as { topics?: unknown } | undefined)?.topics;
      const topics = typeof rawTopics === 'string' ? rawTopics.split(',') : [];
      let unwatch = () => {};
      if (metrics && topics.includes('metrics')) {
        const release = metrics.watch();
        const stop = metrics.subscribe((s) => write('metrics', s));
        const now = metrics.latest();
        if (now) write('metrics', now);
        unwatch = () => {
          stop();
          release();
        };
      }
      // A stream does not keep its session alive: signed out or expired, the stream ends.
      const sessionId = request.admin?.sessionId;
      const beat = setInterval(() => {
        raw.write(': heartbeat\n\n');
        if (sessionId === undefined) return;
        sessionAlive(sessionId).then(
          (ok) => (ok ? undefined : end()),
          () => undefined,
        );
      }, heartbeatMs);
      let ended = false;
      const end = () => {
        if (ended) return;
        ended = true;
        clearInterval(beat);
        unsubscribe();
        unwatch();
        open.delete(end);
        raw.end();
      };
      open.add(end);
      request.raw.on('close', end);
      raw.on('error', end);
    },
  );

  // Open streams never end by themselves: end them so the server can close.
  app.addHook('preClose', (done) => {
    for (const end of [...open]) end();
    done();
  });
}
