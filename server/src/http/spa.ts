import path from 'node:path';
import fastifyStatic from '@fastify/static';
import { ERROR_CODES } from '@mailroom/contract/errors';
import type { FastifyInstance } from 'fastify';
import { existsNow } from '../host/entry-point.ts';
import { errorBody } from './errors.ts';

const API_PREFIXES = ['/api', '/auth', '/metrics'];
const IMMUTABLE = 'public, max-age=31536000, immutable';

/** Serves the built console with history fallback: unknown non-API paths get index.html. */
export async function installSpa(app: FastifyInstance, webDist: string): Promise<void> {
  const hasBuild = existsNow(path.join(webDist, 'index.html'));
  if (hasBuild) {
    const assetsDir = path.join(path.resolve(webDist), 'assets') + path.sep;
    await app.register(fastifyStatic, {
      root: webDist,
      wildcard: false,
      index: false,
      cacheControl: false,
      // The build writes .br/.gz beside each file (web/precompress.ts): sent when the browser takes them.
      preCompressed: true,
      // Hashed assets never change, so browsers keep them; everything else (index.html) is
      // revalidated so a new build is picked up at once.
      setHeaders: (res, filePath) => {
        res.setHeader('cache-control', filePath.startsWith(assetsDir) ? IMMUTABLE : 'no-cache');
      },
    });
    // Files of a build made after start (wildcard: false only registered those present then).
    app.get('/assets/*', { config: { public: true }, schema: { hide: true } }, (req, reply) => {
      const file = (req.params as { '*': string })['*'];
      return reply.sendFile(path.join('assets', file));
    });
  }

  app.setNotFoundHandler((request, reply) => {
    const p = request.url.split('?')[0] ?? '/';
    const isApi = API_PREFIXES.some((pre) => p === pre || p.startsWith(pre + '/'));
    // A missing hashed asset is a 404, never index.html (a stale tab would run HTML as script).
    const isAsset = p.startsWith('/assets/');
    if (!isApi && !isAsset && (request.method === 'GET' || request.method === 'HEAD')) {
      if (!hasBuild) {
        return reply
          .status(503)
          .type('text/plain')
          .send('The web console is not built yet. Run `npm run build` (npm start does it for you).');
      }
      return reply.type('text/html').sendFile('index.html');
    }
    return reply
      .status(404)
      .send(errorBody(ERROR_CODES.NOT_FOUND, `No route for ${request.method} ${p}`, null, false));
  });
}
