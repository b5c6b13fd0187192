import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildOpenApiDocument, openApiText } from '../../src/openapi.ts';
import { dialects, startTestApp, type TestContext } from '../harness.ts';

const COMMITTED = path.resolve(import.meta.dirname, '../../../docs/openapi.json');

interface Operation {
  security?: unknown[];
  responses: Record<string, unknown>;
}
type Doc = { openapi: string; paths: Record<string, Record<string, Operation>> };

// Building the document builds the whole app: do it once for the file.
let generated: string;
beforeAll(async () => {
  generated = openApiText(await buildOpenApiDocument());
});

describe('the committed OpenAPI document', () => {
  it('is generated the same way twice', async () => {
    expect(openApiText(await buildOpenApiDocument())).toBe(generated);
  });

  it('is current (docs/openapi.json)', () => {
    const committed = readFileSync(COMMITTED, 'utf8');
    if (committed !== generated) {
      const now = Object.keys((JSON.parse(generated) as Doc).paths);
      const then = Object.keys((JSON.parse(committed) as Doc).paths);
      const added = now.filter((p) => !then.includes(p));
      const removed = then.filter((p) => !now.includes(p));
      throw new Error(
        `docs/openapi.json is stale: run \`npm run openapi\` and commit the result.` +
          (added.length ? `\n  paths not in the file: ${added.join(', ')}` : '') +
          (removed.length ? `\n  paths no longer served: ${removed.join(', ')}` : '') +
          (!added.length && !removed.length
            ? '\n  (the paths are the same; schemas or descriptions changed)'
            : ''),
      );
    }
  });
});

describe.each(dialects())('GET /api/docs on %s', (dialect) => {
  let t: TestContext;
  beforeAll(async () => {
    t = await startTestApp(dialect);
  });
  afterAll(async () => t.close());

  it('serves the generated document to a signed-in administrator only', async () => {
    expect((await t.app.inject({ url: '/api/docs' })).statusCode).toBe(401);
    const res = await t.call({ url: '/api/docs' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual(JSON.parse(generated));
  });

  it('describes every catalogue route, with bearer security unless public', async () => {
    const doc = (await t.call({ url: '/api/docs' })).json<Doc>();
    expect(doc.openapi).toMatch(/^3\./);
    const catalogue = t.app.routeList.filter(
      (r) =>
        (r.url.startsWith('/api/') || r.url.startsWith('/auth/')) &&
        r.method !== 'HEAD' &&
        r.url !== '/api/docs',
    );
    expect(catalogue.length).toBeGreaterThanOrEqual(5);
    for (const r of catalogue) {
      const p = r.url.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
      const op = doc.paths[p]?.[r.method.toLowerCase()];
      expect(op, `${r.method} ${r.url} is missing from the OpenAPI document`).toBeDefined();
      expect(op!.responses['200'], `${r.method} ${r.url}`).toBeDefined();
      expect(op!.responses['400'], `${r.method} ${r.url}`).toBeDefined();
      if (r.public) expect(op!.security, `${r.method} ${r.url}`).toBeUndefined();
      else expect(op!.security, `${r.method} ${r.url}`).toEqual([{ bearer: [] }]);
    }
  });
});
