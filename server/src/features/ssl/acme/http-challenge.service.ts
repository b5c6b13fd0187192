import http from 'node:http';
import path from 'node:path';
import type { Host } from '../../../host/host.ts';
import { publishFile, unpublishFile } from '../../../host/webroot-files.ts';

export const CHALLENGE_PATH = '/.well-known/acme-challenge/';

/** Where HTTP-01 answers are published while an order is pending. */
export interface HttpChallengeSink {
  put(token: string, keyAuthorization: string): Promise<void>;
  remove(token: string): Promise<void>;
  close(): Promise<void>;
}

interface Listener {
  server: http.Server;
  answers: Map<string, string>;
  users: number;
}

// One listener per port in this process, shared by the orders running at the same time.
const listeners = new Map<number, Promise<Listener>>();

async function openListener(port: number): Promise<Listener> {
  const answers = new Map<string, string>();
  const server = http.createServer((req, res) => {
    const url = req.url ?? '';
    const token = url.startsWith(CHALLENGE_PATH) ? url.slice(CHALLENGE_PATH.length) : '';
    const answer = req.method === 'GET' || req.method === 'HEAD' ? answers.get(token) : undefined;
    if (answer === undefined) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('Not found\n');
      return;
    }
    res.writeHead(200, { 'content-type': 'text/plain' }).end(req.method === 'HEAD' ? undefined : answer);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return { server, answers, users: 0 };
}

/**
 * Mailroom's own HTTP-01 listener on `port` (MAILROOM_ACME_HTTP_PORT): it listens only while at
 * least one order of this process is pending and answers only the tokens of those orders.
 */
export async function listenerSink(port: number): Promise<HttpChallengeSink> {
  let pending = listeners.get(port);
  if (!pending) {
    pending = openListener(port);
    listeners.set(port, pending);
  }
  let l: Listener;
  try {
    l = await pending;
  } catch (err) {
    listeners.delete(port);
    const code = (err as NodeJS.ErrnoException).code;
    throw new Error(
      code === 'EADDRINUSE'
        ? `Port ${port} (MAILROOM_ACME_HTTP_PORT) is in use: the HTTP-01 challenge listener cannot start; use a webroot or free the port`
        : `The HTTP-01 challenge listener on port ${port} could not start: ${(err as Error).message}`,
    );
  }
  l.users += 1;
  const mine = new Set<string>();
  let closed = false;
  return {
    async put(token, keyAuthorization) {
      mine.add(token);
      l.answers.set(token, keyAuthorization);
    },
    async remove(token) {
      mine.delete(token);
      l.answers.delete(token);
    },
    async close() {
      if (closed) return;
      closed = true;
      for (const t of mine) l.answers.delete(t);
      l.users -= 1;
      if (l.users === 0) {
        listeners.delete(port);
        const done = new Promise<void>((resolve) => l.server.close(() => resolve()));
        l.server.closeAllConnections();
        await done;
      }
    },
  };
}

const TOKEN = /^[A-Za-z0-9_-]+$/;

/** Token files under `<webroot>/.well-known/acme-challenge/`, served by the web server. */
export function webrootSink(host: Host, webroot: string): HttpChallengeSink {
  const dir = path.join(host.path(webroot), CHALLENGE_PATH);
  const written = new Set<string>();
  const nameOf = (token: string) => {
    if (!TOKEN.test(token)) throw new Error('The CA sent a challenge token that is not a file name');
    return token;
  };
  return {
    async put(token, keyAuthorization) {
      const name = nameOf(token);
      await publishFile(dir, name, keyAuthorization);
      written.add(token);
    },
    async remove(token) {
      written.delete(token);
      await unpublishFile(dir, nameOf(token));
    },
    async close() {
      for (const t of [...written]) await this.remove(t);
    },
  };
}
