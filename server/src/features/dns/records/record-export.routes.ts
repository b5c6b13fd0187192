import {
  EXPORT_STEMS,
  RECORD_EXPORT_COLUMNS,
  exportRoutes,
  recordExportRow,
} from '@mailroom/contract/exports';
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.ts';
import { domainScope } from '../../../http/access-scope.ts';
import { registerRoute } from '../../../http/register-route.ts';
import { exportStamp, exportStream, sendExport } from '../../../http/stream-export.ts';
import { recordBatches } from './record-list.repository.ts';

/** The streamed export of every DNS record (the answer is the stream itself). */
export function registerRecordExport(app: FastifyInstance, db: Kysely<Database>): void {
  registerRoute(app, exportRoutes.exportRecords, async ({ query, reply, request }) => {
    const body = exportStream(recordBatches(db, undefined, domainScope(request)), query.format, {
      columns: RECORD_EXPORT_COLUMNS,
      row: recordExportRow,
    });
    return sendExport(reply, `${EXPORT_STEMS.records}-${exportStamp()}`, query.format, body) as never;
  });
}
