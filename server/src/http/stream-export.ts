import { Readable } from 'node:stream';
import { csvHeader, csvLine } from '@mailroom/contract/csv-cell';
import type { FastifyReply } from 'fastify';

export type ExportFormat = 'csv' | 'json';

/** Rows are read and written this many at a time: memory stays at one batch, whatever the table. */
export const EXPORT_BATCH = 5000;

/**
 * The text of an export, produced batch by batch: a CSV header then one line per row (formula-like
 * cells neutralised), or one JSON array. The source is only asked for its next batch when the
 * client has taken the previous one (the stream's buffer is below its mark), so a slow client
 * holds at most a batch or two in memory and no database connection between batches.
 */
export function exportStream<T>(
  batches: AsyncIterable<T[]>,
  format: ExportFormat,
  csv: { columns: readonly string[]; row?: (item: T) => Record<string, unknown> },
): Readable {
  async function* text(): AsyncGenerator<string> {
    if (format === 'csv') {
      yield csvHeader(csv.columns);
      for await (const batch of batches) {
        let chunk = '';
        const row = csv.row;
        if (row) for (const item of batch) chunk += csvLine(row(item), csv.columns);
        else for (const item of batch) chunk += csvLine(item as Record<string, unknown>, csv.columns);
        yield chunk;
      }
      return;
    }
    let first = true;
    yield '[';
    for await (const batch of batches) {
      if (!batch.length) continue;
      const inner = JSON.stringify(batch).slice(1, -1);
      yield first ? inner : `,${inner}`;
      first = false;
    }
    yield ']';
  }
  return Readable.from(text(), { objectMode: false, highWaterMark: 256 * 1024 });
}

/**
 * A JSON array from pieces that are already comma-joined JSON values (one per batch, made by the
 * database, as text or UTF-8 bytes): the pieces are written as they are, with the same
 * backpressure as `exportStream`. The next batch is asked for as soon as one is handed on, so a
 * database in another process (PostgreSQL) reads it while this one is written out: memory holds
 * at most the batch being written, the one read ahead and the stream's buffer.
 */
export function jsonArrayStream(pieces: AsyncIterable<Uint8Array | string>): Readable {
  async function* text(): AsyncGenerator<Uint8Array | string> {
    const source = pieces[Symbol.asyncIterator]();
    let first = true;
    let done = false;
    let next = source.next();
    // A batch read ahead for an answer the client abandoned must not fail unhandled.
    next.catch(() => undefined);
    try {
      yield '[';
      for (;;) {
        const r = await next;
        if (r.done) {
          done = true;
          break;
        }
        next = source.next();
        next.catch(() => undefined);
        if (!r.value.length) continue;
        if (!first) yield ',';
        yield r.value;
        first = false;
      }
      yield ']';
    } finally {
      // Abandoned (client gone): let the source finish its read ahead and close (its query ends).
      if (!done)
        void next.then(
          () => source.return?.(),
          () => undefined,
        );
    }
  }
  return Readable.from(text(), { objectMode: false, highWaterMark: 256 * 1024 });
}

/** Sends an export as a download named `{stem}.{format}`. */
export function sendExport(
  reply: FastifyReply,
  stem: string,
  format: ExportFormat,
  body: Readable,
): FastifyReply {
  const type = format === 'csv' ? 'text/csv; charset=utf-8' : 'application/json; charset=utf-8';
  return reply
    .header('content-type', type)
    .header('content-disposition', `attachment; filename="${stem}.${format}"`)
    .send(body);
}

/** Local date as YYYY-MM-DD, for the suggested file name. */
export function exportStamp(date: Date = new Date()): string {
  const p = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${p(date.getMonth() + 1)}-${p(date.getDate())}`;
}
