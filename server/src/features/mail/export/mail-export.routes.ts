import {
  ALIAS_EXPORT_COLUMNS,
  EXPORT_STEMS,
  MAILBOX_EXPORT_COLUMNS,
  exportRoutes,
} from '@mailroom/contract/exports';
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.ts';
import { domainScope } from '../../../http/access-scope.ts';
import { registerRoute } from '../../../http/register-route.ts';
import { exportStamp, exportStream, jsonArrayStream, sendExport } from '../../../http/stream-export.ts';
import { mailboxJsonBatches } from './mail-export-json.repository.ts';
import { aliasBatches, mailboxBatches } from './mail-export.repository.ts';

/** The streamed whole-table exports of mailboxes and aliases (the answer is the stream itself). */
export function registerMailExports(app: FastifyInstance, db: Kysely<Database>): void {
  registerRoute(app, exportRoutes.exportMailboxes, async ({ query, reply, request }) => {
    // JSON: rows serialised by the database, batch by batch; CSV: rows holding exactly its fields.
    // A domain administrator's export reads only their domains (the same batches for both formats).
    const scope = domainScope(request);
    const body =
      query.format === 'json' && scope === null
        ? jsonArrayStream(mailboxJsonBatches(db))
        : exportStream(mailboxBatches(db, undefined, scope), query.format, {
            columns: MAILBOX_EXPORT_COLUMNS,
          });
    return sendExport(reply, `${EXPORT_STEMS.mailboxes}-${exportStamp()}`, query.format, body) as never;
  });
  registerRoute(app, exportRoutes.exportAliases, async ({ query, reply, request }) => {
    const body = exportStream(aliasBatches(db, undefined, domainScope(request)), query.format, {
      columns: ALIAS_EXPORT_COLUMNS,
    });
    return sendExport(reply, `${EXPORT_STEMS.aliases}-${exportStamp()}`, query.format, body) as never;
  });
}
