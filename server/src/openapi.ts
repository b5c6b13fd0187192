import path from 'node:path';
import { buildApp } from './app.ts';
import { loadConfig } from './config.ts';
import { openDatabase } from './db/database.ts';
import { migrateToLatest } from './db/migrate.ts';
import { Host } from './host/host.ts';
import { withScratchDir } from './host/scratch.ts';

/**
 * The OpenAPI document of the whole API, generated from the contract's schemas by building the
 * app on a throwaway database. It ignores the caller's environment so the output only changes
 * when the routes or their schemas do.
 */
export async function buildOpenApiDocument(): Promise<unknown> {
  return withScratchDir('mailroom-openapi-', async (dir) => {
    const config = loadConfig({ MAILROOM_DATA_DIR: dir, MAILROOM_WEB_DIST: path.join(dir, 'no-web') });
    const database = openDatabase(config);
    try {
      await migrateToLatest(database.db);
      const app = await buildApp({ config, database, host: new Host(config.hostRoot, false) });
      try {
        return app.swagger();
      } finally {
        await app.close();
      }
    } finally {
      await database.close();
    }
  });
}

/** The committed form of the document (docs/openapi.json). */
export function openApiText(doc: unknown): string {
  return JSON.stringify(doc, null, 2) + '\n';
}
