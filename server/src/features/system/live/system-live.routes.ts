import { Readable } from 'node:stream';
import {
  LogsQuery,
  LOG_DOWNLOAD_PATH,
  LOG_STREAM_PATH,
  systemLiveRoutes as r,
} from '@mailroom/contract/system-live';
import { systemMetricsRoutes } from '@mailroom/contract/system-metrics';
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../../app-deps.ts';
import { fieldError, notFound } from '../../../http/errors.ts';
import { rawAnswers } from '../../../http/raw-answers.ts';
import { registerRoute } from '../../../http/register-route.ts';
import type { ProcessTable } from '../../../host/process-table.ts';
import { fileSize, readGrowth } from '../../../host/tail-file.ts';
import { closeConnection, listConnections } from './connections.service.ts';
import { DEFAULT_DAYS, listDisks, previewCleanup, runCleanup } from './disks.service.ts';
import { parseAppLogLine } from '../logs/app-logs.service.ts';
import { clearLogs, listLogFiles } from '../logs/log-clear.service.ts';
import { parseLogLine } from '../logs/log.parser.ts';
import {
  downloadLines,
  entryFilter,
  followJournal,
  logFileOf,
  readLogs,
  useJournal,
} from '../logs/logs.service.ts';
import { flushQueue, listQueue, showQueued, superviseQueued } from './mail-queue.service.ts';
import type { MetricsCollector } from './metrics-collector.service.ts';
import { killProcess } from './processes.service.ts';
import type { ServicesService } from '../services/services.service.ts';
import { alertThresholds, readSettingValues } from '../settings/system-settings.service.ts';

export interface SystemLiveParts {
  collector: MetricsCollector;
  processes: ProcessTable;
  services: ServicesService;
}

/** Metrics, services, processes, connections, disks, logs and the mail queue (issue 11's live part). */
export function registerSystemLive(app: FastifyInstance, deps: AppDeps, parts: SystemLiveParts): void {
  const { collector, processes, services } = parts;

  registerRoute(app, systemMetricsRoutes.metrics, async () => ({
    ...(await collector.snapshot()),
    thresholds: alertThresholds(await readSettingValues(deps.database.db)),
  }));
  registerRoute(app, systemMetricsRoutes.services, async () => ({ services: await services.list() }));
  registerRoute(app, r.serviceAction, async ({ params, body, request }) => {
    if (!(await services.list()).some((s) => s.id === params.id)) throw notFound(`No service ${params.id}.`);
    const res = await services.act(params.id, body.action);
    // ok:false is a refusal (Mailroom does not run it) or a failure, never a success.
    request.auditDetails = {
      action: body.action,
      result: res.ok ? 'done' : res.refused ? 'refused' : 'failed',
      ...(res.ok ? {} : { message: res.message }),
    };
    if (!res.ok) request.auditOutcome = 'failure';
    collector.servicesChanged();
    const service = (await services.list()).find((s) => s.id === params.id)!;
    return { ...res, service };
  });
  registerRoute(app, r.restartAll, async ({ request }) => {
    const results = [];
    for (const s of await services.list()) {
      // Only what Mailroom runs (or systemd runs for it) and is running now.
      if (s.status !== 'running' || !s.controllable) continue;
      const res = await services.act(s.id, 'restart');
      results.push({ id: s.id, ok: res.ok, message: res.message });
    }
    const failed = results.filter((x) => !x.ok);
    request.auditDetails = {
      restarted: results.filter((x) => x.ok).map((x) => x.id),
      ...(failed.length ? { failed: failed.map((x) => `${x.id}: ${x.message}`) } : {}),
    };
    if (failed.length) request.auditOutcome = 'failure';
    collector.servicesChanged();
    return { results };
  });

  registerRoute(app, r.processes, async () => ({ processes: await processes.read() }));
  registerRoute(app, r.kill, async ({ params, body, request }) => {
    request.auditDetails = { signal: body.signal };
    return killProcess(processes, params.pid, body.signal);
  });

  registerRoute(app, r.connections, async () => ({ connections: await listConnections() }));
  registerRoute(app, r.closeConnection, async ({ body, request }) => {
    request.auditTarget = body.id;
    return closeConnection(deps.host, body.id);
  });

  registerRoute(app, r.disks, async () => ({ disks: await listDisks() }));
  registerRoute(app, r.cleanupPreview, async ({ query }) =>
    previewCleanup(deps.host, query.days ?? DEFAULT_DAYS),
  );
  registerRoute(app, r.cleanup, async ({ body, request }) => {
    request.auditDetails = { kinds: body.kinds, days: body.days ?? DEFAULT_DAYS };
    return runCleanup(deps.host, body.kinds, body.days ?? DEFAULT_DAYS);
  });

  registerRoute(app, r.logs, async ({ query }) => readLogs(deps, query));
  registerRoute(app, r.logFiles, async () => {
    const files = await listLogFiles(deps);
    return { files, totalBytes: files.reduce((n, f) => n + f.size, 0) };
  });
  registerRoute(app, r.clearLogs, async ({ body, request }) => {
    const logs = [...new Set(body.logs)];
    const answer = await clearLogs(deps, logs);
    request.auditDetails = { logs, ...answer };
    return answer;
  });

  registerRoute(app, r.queue, async () => listQueue(deps));
  registerRoute(app, r.queueMessage, async ({ params }) => ({
    id: params.id,
    text: await showQueued(deps, params.id),
  }));
  registerRoute(app, r.queueDelete, async ({ params }) => superviseQueued(deps, params.id, 'delete'));
  registerRoute(app, r.queueRequeue, async ({ params }) => superviseQueued(deps, params.id, 'requeue'));
  registerRoute(app, r.queueFlush, async () => flushQueue(deps));

  // The filtered range of a log as a text file, streamed.
  app.get(
    LOG_DOWNLOAD_PATH,
    {
      schema: {
        summary: 'The filtered log range as text (oldest first)',
        tags: ['system'],
        querystring: LogsQuery,
        ...rawAnswers('text/plain, the filtered lines oldest first'),
      },
    },
    async (request, reply) => {
      const q = request.query as LogsQuery;
      const name = `${q.source ?? 'mail'}-log.txt`;
      void reply
        .header('content-type', 'text/plain; charset=utf-8')
        .header('content-disposition', `attachment; filename="${name}"`);
      return reply.send(Readable.from(downloadLines(deps, q)));
    },
  );

  const open = new Set<() => void>();
  // The live log stream: the newest lines of one source as Server-Sent Events (`log`), from now on.
  app.get(
    LOG_STREAM_PATH,
    {
      schema: {
        summary: 'Live log lines (text/event-stream, `log` events)',
        tags: ['system'],
        querystring: LogsQuery,
        ...rawAnswers('An endless text/event-stream of `log` events'),
      },
    },
    async (request, reply) => {
      const q = request.query as LogsQuery;
      const source = q.source ?? 'mail';
      if (q.cursor) throw fieldError('cursor', 'The live stream starts at the end of the log.');
      // The applications' logs are files in both modes (one app at a time: the service filter).
      const journal = useJournal(deps) && source !== 'apps';
      const file = journal ? null : await logFileOf(deps, source, q.service);
      const parse = (line: string, id: string, now: Date) =>
        source === 'apps'
          ? parseAppLogLine(line, id, q.service ?? '', now)
          : parseLogLine(line, id, source, now);
      const f = entryFilter(q);
      const raw = reply.raw;
      reply.hijack();
      raw.writeHead(200, {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-store',
        connection: 'keep-alive',
        'x-accel-buffering': 'no',
      });
      raw.write('retry: 3000\n\n');
      raw.write(
        `event: ready\ndata: ${JSON.stringify({ origin: journal ? 'journald' : (file ?? `No ${source} log here.`) })}\n\n`,
      );
      // journald: journalctl follows the journal and says each new entry.
      const unfollow = journal
        ? followJournal(
            source,
            q,
            (e) => raw.write(`event: log\ndata: ${JSON.stringify(e)}\n\n`),
            (why) => raw.write(`event: ready\ndata: ${JSON.stringify({ origin: why })}\n\n`),
          )
        : null;
      let pos = file ? await fileSize(file) : 0;
      let carry = '';
      let busy = false;
      let beat = 0;
      const poll = async () => {
        if (busy || !file) return;
        busy = true;
        try {
          const grown = await readGrowth(file, pos, 1024 * 1024);
          if (!grown) return;
          pos = grown.from; // 0 when rotated or truncated: the new file is read from its start
          const buf = grown.bytes;
          if (buf.length === 0) return;
          const len = buf.length;
          let offset = pos - Buffer.byteLength(carry);
          pos += len;
          const text = carry + buf.toString('utf8');
          const lines = text.split('\n');
          carry = lines.pop() ?? '';
          const now = new Date();
          for (const line of lines) {
            const e = f.raw(line) ? parse(line, `f:${offset}`, now) : null;
            offset += Buffer.byteLength(line) + 1;
            if (e && f.entry(e)) raw.write(`event: log\ndata: ${JSON.stringify(e)}\n\n`);
          }
        } finally {
          busy = false;
        }
      };
      const timer = setInterval(() => {
        void poll();
        if (++beat % 15 === 0) raw.write(': heartbeat\n\n');
      }, 1000);
      let ended = false;
      const end = () => {
        if (ended) return;
        ended = true;
        clearInterval(timer);
        unfollow?.();
        open.delete(end);
        raw.end();
      };
      open.add(end);
      request.raw.on('close', end);
      raw.on('error', end);
    },
  );
  app.addHook('preClose', (done) => {
    for (const end of [...open]) end();
    done();
  });
}
