import { SSL_CSV_COLUMNS, SSL_DOWNLOAD_PATH, SSL_EXPORT_PATH, sslCsvName } from '@mailroom/contract/ssl';
import { zipSync, strToU8 } from 'fflate';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { recordAudit } from '../../http/audit-log.repository.ts';
import { rawAnswers } from '../../http/raw-answers.ts';
import { exportStamp, exportStream, sendExport } from '../../http/stream-export.ts';
import { requiredInt } from '@mailroom/contract/validators';
import { listCertificates } from './certificate.service.ts';
import { readRow } from './certificate.repository.ts';
import type { SslContext } from './ssl-context.types.ts';

const DownloadQuery = z.object({ format: z.enum(['pem', 'zip']).optional().default('pem') });
const safeName = (domain: string) => domain.replace(/^\*\./, 'wildcard.').replace(/[^a-z0-9.-]/gi, '_');

/** Download (PEM bundle, or a zip with key, chain and fullchain) and the CSV export. */
export function registerCertificateFiles(app: FastifyInstance, ctx: SslContext): void {
  app.get(
    SSL_EXPORT_PATH,
    {
      schema: {
        summary: 'ssl-certificates-{date}.csv with the spec columns',
        tags: ['ssl'],
        ...rawAnswers('text/csv, one certificate a row'),
      },
    },
    async (_request, reply) => {
      async function* batches() {
        for (let offset = 0; ; offset += 1000) {
          const { items } = await listCertificates(ctx, { limit: 1000, offset });
          if (items.length) yield items;
          if (items.length < 1000) return;
        }
      }
      const body = exportStream(batches(), 'csv', { columns: SSL_CSV_COLUMNS });
      return sendExport(reply, sslCsvName(exportStamp()).replace(/\.csv$/, ''), 'csv', body);
    },
  );
  app.get(
    SSL_DOWNLOAD_PATH,
    {
      config: { audit: 'ssl.certificate.download' },
      schema: {
        summary: 'Download a certificate: PEM bundle (certificate, chain, key) or zip',
        tags: ['ssl'],
        params: z.object({ id: requiredInt('id', 1) }),
        querystring: DownloadQuery,
        ...rawAnswers('application/x-pem-file (certificate, chain, key) or application/zip'),
      },
    },
    async (request, reply) => {
      const { id } = request.params as { id: number };
      const { format } = request.query as z.output<typeof DownloadQuery>;
      const row = await readRow(ctx.db, id);
      const key = ctx.vault.open(row.key_enc);
      const name = safeName(row.domain);
      // Handing out a private key is worth an audit line of its own.
      await recordAudit(ctx.db, {
        actor: request.admin?.email ?? null,
        action: 'ssl.certificate.download',
        target: row.domain,
        ip: request.ip,
        outcome: 'success',
        details: { id, format },
      });
      request.auditDone = true;
      void reply.header('cache-control', 'no-store');
      if (format === 'zip') {
        const zip = zipSync({
          [`${name}/cert.pem`]: strToU8(row.certificate_pem),
          [`${name}/chain.pem`]: strToU8(row.chain_pem),
          [`${name}/fullchain.pem`]: strToU8(row.certificate_pem + row.chain_pem),
          [`${name}/privkey.pem`]: strToU8(key),
        });
        return reply
          .header('content-type', 'application/zip')
          .header('content-disposition', `attachment; filename="${name}.zip"`)
          .send(Buffer.from(zip));
      }
      return reply
        .header('content-type', 'application/x-pem-file')
        .header('content-disposition', `attachment; filename="${name}.pem"`)
        .send(row.certificate_pem + row.chain_pem + key);
    },
  );
}
